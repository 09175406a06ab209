// The settings' values are checked by the derive as by the compiler.
use surqlc_macros::Schema;

#[derive(Schema)]
#[surqlc(
    examples(k = 0, table = "few shots"),
    agent(user = "bad-name", token = "soon"),
    budget(block = 0),
)]
pub struct Settings;

fn main() {}
