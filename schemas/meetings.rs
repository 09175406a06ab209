//! A meeting-notes knowledge graph: people, meetings and tasks, tied by schemaless relations.
//!
//! People and tasks have no fields: their record id *is* the data (`person:⟨Alice Chen⟩`,
//! `task:⟨Draft the Q3 roadmap.⟩`), so the value hints list the ids, not field values.

use serde::{Deserialize, Serialize};
use surqlc::runtime::Link;
use surqlc_macros::{Relation, Schema, Table};

/// The graph's prompt: every table, and hints that describe ids, a date range and how to match tasks.
#[derive(Schema)]
#[surqlc(
    expose(Person, Meeting, Task, Attended, Discussed, Assigned),
    value_hints(
        ids(Person),
        range(Meeting::time),
        note("task ids are full sentences; match them with string::contains(record::id(id), '...')")
    ),
    examples(dimension = 4)
)]
pub struct Meetings;

/// A person; the id is their full name, e.g. person:⟨Alice Chen⟩.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Person {
    pub id: String,
}

/// A meeting, numbered in order: meeting:1, meeting:2, ...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Meeting {
    pub id: i64,
    /// The meeting's title.
    pub title: String,
    /// The day it took place, 'YYYY-MM-DD'; compare as strings (ISO dates sort in date order).
    pub time: String,
}

/// A task; the id is the task itself, as a sentence, e.g. task:⟨Draft the Q3 roadmap.⟩
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Task {
    pub id: String,
}

/// A person (in) attended a meeting (out). Traverse: person->attended->meeting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(schemaless)]
pub struct Attended {
    pub r#in: Link<Person>,
    pub out: Link<Meeting>,
}

/// A meeting (in) discussed a task (out). Traverse: meeting->discussed->task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(schemaless)]
pub struct Discussed {
    pub r#in: Link<Meeting>,
    pub out: Link<Task>,
}

/// A person (in) is assigned a task (out). Traverse: person->assigned->task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(schemaless, enforced)]
pub struct Assigned {
    pub r#in: Link<Person>,
    pub out: Link<Task>,
    /// Whether the task is done.
    pub done: bool,
}
