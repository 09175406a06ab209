// Every problem in one item is reported in one compile, each at its own span.
use surqlc_macros::Table;

pub struct Link<T>(T);

/// A row.
#[derive(Table)]
pub struct Row {
    #[surqlc(colour = "red")]
    pub a: String,
    pub b: std::collections::HashMap<String, u8>,
    #[surqlc(rename = "a")]
    pub c: u32,
    #[surqlc(rename = "in")]
    pub d: u32,
}

fn main() {}
