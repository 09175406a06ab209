//! What an unsupported field type is told to do: each piece of advice names a fix that works end to end (`tests/escape_hatches.rs` follows every one).

/// The attribute that stores any object (a map, a struct, an enum with data) in a SCHEMAFULL
/// table: without `FLEXIBLE` the table keeps none of the object's keys and refuses the row.
pub const FLEXIBLE_OBJECT: &str = "#[surqlc(type = \"object FLEXIBLE\")]";

/// The import and derive that give a type of the application's a `SurrealValue` impl.
pub const SURREAL_VALUE_DERIVE: &str = "`use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)]";

/// For a type surqlc has no mapping for and knows nothing about.
pub const RAW_TYPE: &str = "give its SurrealQL type with #[surqlc(type = \"...\")]";

/// `HashMap<K, V>` / `BTreeMap<K, V>`; `string_keys` when `K` is a string type.
pub fn map(string_keys: bool) -> String {
    if string_keys {
        format!("store it as an object whose keys a SCHEMAFULL table keeps: {FLEXIBLE_OBJECT}")
    } else {
        format!(
            "SurrealDB object keys are strings: make the keys `String` and store it as an object whose \
            keys a SCHEMAFULL table keeps: {FLEXIBLE_OBJECT}"
        )
    }
}

/// What the item named `name` is, as far as the schema files show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plain {
    Struct,
    /// A struct that already derives surrealdb's `SurrealValue`: it stores, but has no schema.
    ValueStruct,
    /// An enum whose variants are all units.
    UnitEnum,
    /// An enum with at least one variant carrying data.
    DataEnum,
    /// Not in the schema files (another module, another crate).
    Unknown,
}

/// The advice for a field of type `name`, an item of the application's without a surqlc derive.
pub fn named(name: &str, what: Plain) -> String {
    let link =
        format!("make it a table and link it (#[derive(Table)] on `{name}`, and `Link<{name}>` as this field's type)");
    let inline =
        format!("store it inside the row: {SURREAL_VALUE_DERIVE} on `{name}`, and {FLEXIBLE_OBJECT} on this field");
    let object = format!(
        "#[derive(Object)] on `{name}` stores it inside the row with each of its fields a typed sub-field (`field.sub`)"
    );
    match what {
        Plain::Struct => format!("a struct is not a column type: {object}; or {link}; or {inline}"),
        Plain::ValueStruct => format!(
            "`{name}` derives SurrealValue, which stores it but gives its fields no schema: {object} (Object \
                implements SurrealValue, so it replaces that derive); or keep it untyped with \
                {FLEXIBLE_OBJECT} on this field"
        ),
        Plain::UnitEnum => format!(
            "derive Literal on `{name}` to store it as one of its variant names (serde's renames honoured)"
        ),
        Plain::DataEnum => format!(
            "an enum with data is not a literal union: {inline} (each variant is stored as an object `{{ Variant: ... }}`)"
        ),
        Plain::Unknown => format!(
            "not a table, an Object, a Literal enum or a type surqlc maps; for a struct of the schema's, \
                {object}, or {link}; for an enum, {inline}; otherwise {RAW_TYPE}"
        ),
    }
}

/// The advice for a field of another crate's type (`serde_json::Value`): surqlc cannot read its
/// fields or derive on it, so it is stored untyped.
pub fn foreign(path: &str) -> String {
    format!(
        "`{path}` is not declared in the schema files, so surqlc cannot give its fields a schema: store any \
            value with #[surqlc(type = \"any\")], or an object with any keys with {FLEXIBLE_OBJECT} (a \
            SCHEMAFULL table keeps an object's keys only in a FLEXIBLE field); a struct of your own: \
            #[derive(Object)] on it, in a file of the schema"
    )
}

/// What a plain item is.
pub fn classify(item: &syn::DeriveInput) -> Plain {
    let derives_value =
        super::attr::derive_paths(&item.attrs).any(|p| p.segments.last().is_some_and(|s| s.ident == "SurrealValue"));
    match &item.data {
        syn::Data::Struct(_) if derives_value => Plain::ValueStruct,
        syn::Data::Struct(_) | syn::Data::Union(_) => Plain::Struct,
        syn::Data::Enum(e) if e.variants.iter().all(|v| v.fields.is_empty()) => Plain::UnitEnum,
        syn::Data::Enum(_) => Plain::DataEnum,
    }
}
