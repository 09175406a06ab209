//! A veterinary clinic whose agent answers each pet owner about their own pets, visits and bills.
//!
//! The per-user agent's second schema (the store is the first): the end user is an `Owner`, and
//! every exposed table says who owns its rows (`owner = "..."`, routes of one to four steps
//! through record links and relations) or that every owner reads it (`shared`).

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Decimal, Link};
use surqlc_macros::{Literal, Relation, Schema, Table};

/// The clinic's agent: one per signed-in pet owner.
#[derive(Schema)]
#[surqlc(
    expose(Owner, Owns, Pet, Vet, Visit, Prescribed, Medication, Invoice),
    analyzer(
        name = "notes_en",
        tokenizers(blank, class, punct),
        filters("lowercase", "snowball(english)"),
        comment = "English words of a vet's notes, stemmed."
    ),
    value_hints(Pet::species, Visit::reason, Invoice::status),
    examples(dimension = 4, k = 3, ef = 40),
    agent(user = "agent", token = "1h", session = "12h"),
    scope(end_user = Owner, access = "owner_agent", token = "15m", session = "1h")
)]
pub struct Clinic;

/// A client of the clinic who owns pets. Their pets: owner->owns->pet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Owner {
    /// Full name of the owner.
    pub name: String,
    /// The city they live in.
    pub city: String,
}

/// Links an owner (in) to a pet of theirs (out). Traverse: owner->owns->pet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(owner = "in")]
pub struct Owns {
    pub r#in: Link<Owner>,
    pub out: Link<Pet>,
    /// When the owner registered the pet with the clinic.
    pub since: Datetime,
}

/// An animal the clinic treats. Its owner: pet<-owns<-owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(owner = "<-owns<-owner")]
pub struct Pet {
    /// The pet's name.
    pub name: String,
    /// What kind of animal it is.
    pub species: Species,
    /// Date of birth.
    pub born: Datetime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Species {
    Dog,
    Cat,
    Rabbit,
}

/// A veterinarian of the clinic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(shared)]
pub struct Vet {
    /// Full name of the vet.
    pub name: String,
    /// What the vet is trained in, e.g. 'surgery'.
    pub speciality: String,
}

/// One appointment of a pet with a vet. The pet's owner: visit.pet<-owns<-owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(
    owner = "pet<-owns<-owner",
    index(
        name = "visit_notes",
        fields(notes),
        fulltext(analyzer = "notes_en", bm25(1.2, 0.75), highlights)
    )
)]
pub struct Visit {
    /// The pet seen.
    pub pet: Link<Pet>,
    /// The vet who saw it.
    pub vet: Link<Vet>,
    /// When the visit took place.
    pub at: Datetime,
    /// Why the pet came in.
    pub reason: Reason,
    /// The vet's notes on the visit.
    pub notes: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    Checkup,
    Vaccination,
    Injury,
    Illness,
}

/// A medicine the clinic dispenses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(shared)]
pub struct Medication {
    /// Name of the medicine.
    pub name: String,
    /// Price of one unit in EUR.
    pub unit_price: Decimal,
}

/// A medicine prescribed at a visit: links a visit (in) to a medication (out). Traverse: visit->prescribed->medication.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(owner = "in.pet<-owns<-owner")]
pub struct Prescribed {
    pub r#in: Link<Visit>,
    pub out: Link<Medication>,
    /// Units prescribed.
    pub qty: u32,
}

/// The bill for one visit. Its owner: invoice.visit.pet<-owns<-owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(owner = "visit.pet<-owns<-owner")]
pub struct Invoice {
    /// The visit billed.
    pub visit: Link<Visit>,
    /// Total amount in EUR.
    pub amount: Decimal,
    /// Payment state. Outstanding means 'open'.
    pub status: InvoiceStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum InvoiceStatus {
    Open,
    Paid,
}
