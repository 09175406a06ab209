//! An `ir::Schema` written as a Rust expression, so the generated module can hand the validator the schema at run time.

use crate::ir::{Field, Schema, Table, TableKind, Type};

// Every field of the IR is written out: a struct literal that misses one does not compile, so a
// new IR field shows up here (and in the goldens) rather than silently defaulting.

fn s(text: &str) -> String {
    // `{:?}` writes a valid Rust string literal.
    format!("::std::string::String::from({text:?})")
}

fn opt(text: &Option<String>) -> String {
    match text {
        Some(t) => format!("::std::option::Option::Some({})", s(t)),
        None => "::std::option::Option::None".into(),
    }
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("::std::vec::Vec::from([{}])", items.join(", "))
}

fn ty(t: &Type) -> String {
    const P: &str = "::surqlc::ir::Type";
    match t {
        Type::Any => format!("{P}::Any"),
        Type::Bool => format!("{P}::Bool"),
        Type::Int => format!("{P}::Int"),
        Type::Float => format!("{P}::Float"),
        Type::Decimal => format!("{P}::Decimal"),
        Type::String => format!("{P}::String"),
        Type::Datetime => format!("{P}::Datetime"),
        Type::Duration => format!("{P}::Duration"),
        Type::Uuid => format!("{P}::Uuid"),
        Type::Bytes => format!("{P}::Bytes"),
        Type::Object => format!("{P}::Object"),
        Type::Option(inner) => format!("{P}::Option(::std::boxed::Box::new({}))", ty(inner)),
        Type::Array(inner, n) => format!(
            "{P}::Array(::std::boxed::Box::new({}), {})",
            ty(inner),
            match n {
                Some(n) => format!("::std::option::Option::Some({n})"),
                None => "::std::option::Option::None".into(),
            }
        ),
        Type::Record(t) => format!("{P}::Record({})", s(t)),
        Type::Literal(values) => format!("{P}::Literal({})", list(values.iter().map(|v| s(v)))),
        // Read again at run time by the reader that accepted it at build time.
        Type::Raw(raw) => format!("::surqlc::__private::raw_type({:?})", raw.text),
    }
}

fn field(f: &Field) -> String {
    format!(
        "::surqlc::ir::Field {{ name: {}, rust_name: {}, ty: {}, comment: {} }}",
        s(&f.name),
        s(&f.rust_name),
        ty(&f.ty),
        opt(&f.comment)
    )
}

fn table(t: &Table) -> String {
    let kind = match &t.kind {
        TableKind::Normal => "::surqlc::ir::TableKind::Normal".to_owned(),
        TableKind::Relation { from, to } => format!(
            "::surqlc::ir::TableKind::Relation {{ from: {}, to: {} }}",
            s(from),
            s(to)
        ),
    };
    format!(
        "::surqlc::ir::Table {{ name: {}, rust_name: {}, comment: {}, kind: {kind}, fields: {} }}",
        s(&t.name),
        s(&t.rust_name),
        opt(&t.comment),
        list(t.fields.iter().map(field))
    )
}

/// `schema` as a Rust expression of type `::surqlc::ir::Schema` (no feature of surqlc needed: the IR is plain data).
pub fn schema_expr(schema: &Schema) -> String {
    let st = &schema.settings;
    let u32opt = |v: Option<u32>| match v {
        Some(n) => format!("::std::option::Option::Some({n})"),
        None => "::std::option::Option::None".into(),
    };
    let enums = list(schema.enums.iter().map(|e| {
        format!(
            "::surqlc::ir::LiteralEnum {{ rust_name: {}, comment: {}, variants: {} }}",
            s(&e.rust_name),
            opt(&e.comment),
            list(e.variants.iter().map(|(r, v)| format!("({}, {})", s(r), s(v))))
        )
    }));
    let settings = format!(
        "::surqlc::ir::Settings {{ exposed: {}, value_hints: {}, examples: ::surqlc::ir::ExampleSettings {{ table: {}, dimension: {}, k: {}, ef: {} }}, agent: ::surqlc::ir::AgentSettings {{ user: {}, token_duration: {}, session_duration: {} }}, max_rows: {}, compact: {}, budget: ::surqlc::ir::Budget {{ block: {}, table: {} }}, prune: {} }}",
        list(st.exposed.iter().map(|t| s(t))),
        list(st.value_hints.iter().map(|h| format!(
            "::surqlc::ir::FieldRef {{ table: {}, field: {} }}",
            s(&h.table),
            s(&h.field)
        ))),
        s(&st.examples.table),
        st.examples.dimension,
        st.examples.k,
        st.examples.ef,
        s(&st.agent.user),
        s(&st.agent.token_duration),
        s(&st.agent.session_duration),
        st.max_rows,
        st.compact,
        u32opt(st.budget.block),
        u32opt(st.budget.table),
        match &st.prune {
            None => "::std::option::Option::None".to_owned(),
            Some(p) => format!(
                "::std::option::Option::Some(::surqlc::ir::Prune {{ budget: {}, always: {}, mix: ::surqlc::ir::RetrievalMix::{:?} }})",
                p.budget,
                list(p.always.iter().map(|t| s(t))),
                p.mix
            ),
        },
    );
    format!(
        "::surqlc::ir::Schema {{ name: {}, rust_name: {}, tables: {}, enums: {enums}, settings: {settings} }}",
        s(&schema.name),
        opt(&schema.rust_name),
        list(schema.tables.iter().map(table))
    )
}
