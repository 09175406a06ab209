use surqlc_macros::Literal;

#[derive(Literal)]
pub enum Tier {
    Free,
    Plus(u32),
    #[surqlc(rename = "Free")]
    Gratis,
}

#[derive(Literal)]
pub struct NotAnEnum;

fn main() {}
