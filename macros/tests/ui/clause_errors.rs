use surqlc_macros::Table;

/// An index on a misspelt field, one over a computed field, and `enforced` on a plain table.
#[derive(Table)]
#[surqlc(enforced, index(fields(nmae), unique), index(fields(path)))]
pub struct File {
    pub name: String,
    #[surqlc(computed = "'/' + name", readonly)]
    pub path: String,
    #[surqlc(default_always)]
    pub size: i64,
    #[surqlc(value = "string::len(name")]
    pub length: i64,
}

fn main() {}
