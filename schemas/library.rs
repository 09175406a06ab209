//! A lending library: a second example schema that exercises more of the annotation grammar
//! (renames, options, arrays, fixed-length arrays, UUIDs, durations, a raw type override,
//! a relation with its own fields, skipped fields and the default settings), and what the agent
//! may not read: the audit log is not exposed and a member's phone number is `hidden`, so the
//! agent signs in through record access bound by `PERMISSIONS` (see `surqlc::access`).

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Duration, Link, Uuid};
use surqlc_macros::{Literal, Relation, Schema, Table};

/// Prompt settings: expose everything but the audit log, hint the literal fields.
#[derive(Schema)]
#[surqlc(
    expose(Member, Book, Borrowed, Author, Wrote),
    examples(dimension = 8, k = 4, ef = 64, table = "library_example"),
    agent(user = "librarian_bot", token = "15m", session = "1h"),
    max_rows = 25
)]
pub struct Library;

/// Someone with a library card.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// The card number printed on the card.
    pub card_id: Uuid,
    /// Display name.
    pub display_name: String,
    /// Membership level; 'staff' members may borrow reference books.
    pub level: Level,
    /// Nicknames the member answers to, if any.
    pub nicknames: Vec<String>,
    /// Phone number for overdue notices: personal data, kept from the agent.
    #[surqlc(hidden)]
    pub phone: Option<String>,
    /// Cached for the UI only; never stored.
    #[serde(skip)]
    pub unread_notices: u32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, Literal)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Level {
    Junior,
    Adult,
    #[serde(rename = "staff")]
    Staff,
}

/// A title in the catalogue.
///
/// One row per edition, not per copy.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Book {
    /// Title as printed on the cover.
    pub title: String,
    /// ISBN-13, if the edition has one.
    pub isbn: Option<String>,
    /// Shelf coordinates: aisle, bay, shelf.
    pub shelf: [u16; 3],
    /// Genres, most specific first.
    pub genres: Vec<Genre>,
    /// Cover outline for the kiosk map.
    #[surqlc(type = "option<geometry<polygon>>")]
    pub cover_outline: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, Literal)]
#[serde(rename_all = "kebab-case")]
pub enum Genre {
    Fiction,
    NonFiction,
    ScienceFiction,
    Poetry,
}

/// A person who wrote books.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Author {
    /// Name as credited.
    pub name: String,
}

/// A loan: member (in) borrowed book (out). Traverse: member->borrowed->book.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Borrowed {
    pub r#in: Link<Member>,
    pub out: Link<Book>,
    /// When the loan started.
    pub at: Datetime,
    /// Loan period granted.
    pub period: Duration,
    /// When the book came back; NONE while on loan.
    pub returned_at: Option<Datetime>,
}

/// Authorship: author (in) wrote book (out). Traverse: author->wrote->book.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Wrote {
    pub r#in: Link<Author>,
    pub out: Link<Book>,
}

/// Every change to a loan, for the auditors; not shown to the model.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(rename = "loan_audit")]
pub struct LoanAuditEntry {
    /// The member who changed the loan.
    pub member: Link<Member>,
    /// What happened, in the desk clerk's words.
    pub note: String,
    /// Fines charged in cents, if any.
    pub fine_cents: Option<i64>,
}
