use surqlc_macros::{Relation, Table};

pub struct Link<T>(T);

#[derive(Table)]
pub struct Customer {
    pub name: String,
}

/// No `out` end, and `in` is not a link.
#[derive(Relation)]
pub struct Placed {
    pub r#in: Customer,
}

#[derive(Table)]
pub enum Wrong {
    A,
}

#[derive(Table)]
pub struct Generic<T> {
    pub value: T,
}

fn main() {}
