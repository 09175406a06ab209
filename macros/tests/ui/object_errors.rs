// An Object's errors, each at its own span: a field inside itself (an `id` is an ordinary
// sub-field, no error), a clause that is a table field's, an attribute an Object does not take, and an Object that is not a struct.
use surqlc_macros::Object;

#[derive(Object)]
#[surqlc(index(fields(a)))]
pub struct Tree {
    pub children: Vec<Tree>,
    pub id: String,
    #[surqlc(computed = "1")]
    pub size: i64,
    #[surqlc(hidden)]
    pub secret: String,
}

#[derive(Object)]
pub enum Shape {
    Round,
}

fn main() {}
