//! What an unsupported field type is told to do: each piece of advice names a fix that works end to end (`tests/escape_hatches.rs` follows every one).

/// The attribute that stores any object (a map, a struct, an enum with data) in a SCHEMAFULL
/// table: without `FLEXIBLE` the table keeps none of the object's keys and refuses the row.
pub const FLEXIBLE_OBJECT: &str = "#[surqlc(type = \"object FLEXIBLE\")]";

/// The import and derive that give a type of the application's a `SurrealValue` impl.
pub const SURREAL_VALUE_DERIVE: &str =
    "`use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)]";

/// For a type surqlc has no mapping for and knows nothing about.
pub const RAW_TYPE: &str = "give its SurrealQL type with #[surqlc(type = \"...\")]";

/// `HashMap<K, V>` / `BTreeMap<K, V>`; `string_keys` when `K` is a string type.
pub fn map(string_keys: bool) -> String {
    if string_keys {
        format!("store it as an object whose keys a SCHEMAFULL table keeps: {FLEXIBLE_OBJECT}")
    } else {
        format!("SurrealDB object keys are strings: make the keys `String` and store it as an object whose keys a SCHEMAFULL table keeps: {FLEXIBLE_OBJECT}")
    }
}

/// What the item named `name` is, as far as the schema files show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plain {
    Struct,
    /// An enum whose variants are all units.
    UnitEnum,
    /// An enum with at least one variant carrying data.
    DataEnum,
    /// Not in the schema files (another module, another crate).
    Unknown,
}

/// The advice for a field of type `name`, an item of the application's without a surqlc derive.
pub fn named(name: &str, what: Plain) -> String {
    let link = format!(
        "make it a table and link it (#[derive(Table)] on `{name}`, and `Link<{name}>` as this field's type)"
    );
    let inline = format!(
        "store it inside the row: {SURREAL_VALUE_DERIVE} on `{name}`, and {FLEXIBLE_OBJECT} on this field"
    );
    match what {
        Plain::Struct => format!("a struct is not a column type: {link}, or {inline}"),
        Plain::UnitEnum => format!(
            "derive Literal on `{name}` to store it as one of its variant names (serde's renames honoured)"
        ),
        Plain::DataEnum => format!(
            "an enum with data is not a literal union: {inline} (each variant is stored as an object `{{ Variant: ... }}`)"
        ),
        Plain::Unknown => format!(
            "not a table, a Literal enum or a type surqlc maps; for a struct or an enum, {link}, or {inline}; otherwise {RAW_TYPE}"
        ),
    }
}

/// What a plain item is.
pub fn classify(item: &syn::DeriveInput) -> Plain {
    match &item.data {
        syn::Data::Struct(_) | syn::Data::Union(_) => Plain::Struct,
        syn::Data::Enum(e) if e.variants.iter().all(|v| v.fields.is_empty()) => Plain::UnitEnum,
        syn::Data::Enum(_) => Plain::DataEnum,
    }
}
