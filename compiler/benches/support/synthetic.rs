//! Synthetic Rust schemas in the style of `schemas/store.rs`: six documented fields per table, every fourth table a relation.

use std::fmt::Write;

/// The Rust source of a schema of `tables` tables, all exposed. Table `i` is `Entity{i}` (`entity_{i}`);
/// every fourth (`i % 4 == 3`) is a relation from table `i - 2` to table `i - 1`. Each table has six
/// documented fields of the store's kinds (string, literal enum, decimal, int, datetime, optional string),
/// and the first table's `status` is a value hint.
pub fn source(tables: usize) -> String {
    let mut s = String::with_capacity(tables * 1200);
    let _ = writeln!(
        s,
        "//! A synthetic schema of {tables} tables in the style of the store.\n\n\
         use serde::{{Deserialize, Serialize}};\n\
         use surqlc::runtime::{{Datetime, Decimal, Link}};\n\
         use surqlc_macros::{{Literal, Relation, Schema, Table}};\n"
    );
    let names: Vec<String> = (0..tables).map(|i| format!("Entity{i}")).collect();
    let _ = writeln!(
        s,
        "/// The prompt of the synthetic schema.\n#[derive(Schema)]\n#[surqlc(\n    expose({}),\n    value_hints(Entity0::status),\n    examples(dimension = 4, k = 3, ef = 40),\n    agent(user = \"agent\", token = \"1h\", session = \"12h\")\n)]\npub struct Synthetic;\n",
        names.join(", ")
    );
    let _ = writeln!(
        s,
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]\n\
         #[serde(rename_all = \"lowercase\")]\n\
         pub enum Status {{\n    Draft,\n    Active,\n    Retired,\n}}\n"
    );
    for i in 0..tables {
        let relation = i % 4 == 3;
        if relation {
            let _ = writeln!(
                s,
                "/// Links an entity_{a} (in) to an entity_{b} (out) it depends on. Traverse: entity_{a}->entity_{i}->entity_{b}.\n\
                 #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]\n\
                 pub struct Entity{i} {{\n    pub r#in: Link<Entity{a}>,\n    pub out: Link<Entity{b}>,",
                a = i - 2,
                b = i - 1
            );
        } else {
            let _ = writeln!(
                s,
                "/// A record of kind {i} that the business keeps. Related through entity_{}.\n\
                 #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]\n\
                 pub struct Entity{i} {{",
                i | 3
            );
        }
        let _ = writeln!(
            s,
            "    /// Display name of the entity_{i} record.\n    pub name: String,\n\
             \x20   /// Lifecycle state. Reports count 'active' only.\n    pub status: Status,\n\
             \x20   /// Amount in EUR, with two decimals.\n    pub amount: Decimal,\n\
             \x20   /// How many units the record covers.\n    pub quantity: u32,\n\
             \x20   /// When the record was created.\n    pub created_at: Datetime,\n\
             \x20   /// Free-text note from the operator, if any.\n    pub note: Option<String>,\n}}\n"
        );
    }
    s
}
