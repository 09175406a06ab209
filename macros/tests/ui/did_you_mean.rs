// A misspelled attribute or setting is answered with the nearest valid name.
use surqlc_macros::{Schema, Table};

/// A ticket.
#[derive(Table)]
pub struct Ticket {
    #[surqlc(renam = "title")]
    pub subject: String,
    #[surqlc(typ = "object FLEXIBLE")]
    pub metadata: std::collections::HashMap<String, String>,
}

#[derive(Schema)]
#[surqlc(value_hint(Ticket::subject))]
pub struct Desk;

fn main() {}
