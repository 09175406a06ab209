use surqlc_macros::{Schema, Table};

#[derive(Table)]
#[surqlc(rename = "my-table")]
pub struct Odd {
    pub table: String,
    pub a_b: String,
    #[allow(non_snake_case)]
    pub aB: String,
    #[doc = include_str!("names_and_docs.rs")]
    pub doc_from_a_macro: String,
    #[surqlc(type = "string", type = "int")]
    pub twice: String,
}

#[derive(Schema)]
#[surqlc(expose(Odd), colour = "red", examples(k = 0, size = 3))]
pub struct Settings;

fn main() {}
