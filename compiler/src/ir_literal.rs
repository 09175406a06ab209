//! An `ir::Schema` written as a Rust expression, so the generated module can hand the validator the schema at run time.

use crate::ir::{Field, FieldClauses, Index, IndexKind, OnDelete, Permission, Permissions, Schema, Table, TableKind, Type, ValueHint};

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

fn some<T>(v: &Option<T>, f: impl Fn(&T) -> String) -> String {
    match v {
        Some(v) => format!("::std::option::Option::Some({})", f(v)),
        None => "::std::option::Option::None".into(),
    }
}

fn permission(p: &Permission) -> String {
    match p {
        Permission::None => "::surqlc::ir::Permission::None".into(),
        Permission::Full => "::surqlc::ir::Permission::Full".into(),
        Permission::Where(e) => format!("::surqlc::ir::Permission::Where({})", s(e)),
    }
}

fn permissions(p: &Permissions) -> String {
    format!(
        "::surqlc::ir::Permissions {{ select: {}, create: {}, update: {}, delete: {} }}",
        some(&p.select, permission),
        some(&p.create, permission),
        some(&p.update, permission),
        some(&p.delete, permission)
    )
}

fn clauses(c: &FieldClauses) -> String {
    if c.is_empty() {
        return "::std::default::Default::default()".into();
    }
    format!(
        "::surqlc::ir::FieldClauses {{ default: {}, value: {}, computed: {}, assert: {}, readonly: {}, flexible: {}, reference: {}, permissions: {} }}",
        some(&c.default, |d| format!("::surqlc::ir::FieldDefault {{ expr: {}, always: {} }}", s(&d.expr), d.always)),
        some(&c.value, |e| s(e)),
        some(&c.computed, |e| s(e)),
        some(&c.assert, |e| s(e)),
        c.readonly,
        c.flexible,
        some(&c.reference, |r| format!(
            "::surqlc::ir::Reference {{ on_delete: {} }}",
            some(&r.on_delete, |d| match d {
                OnDelete::Reject => "::surqlc::ir::OnDelete::Reject".into(),
                OnDelete::Cascade => "::surqlc::ir::OnDelete::Cascade".into(),
                OnDelete::Ignore => "::surqlc::ir::OnDelete::Ignore".into(),
                OnDelete::Unset => "::surqlc::ir::OnDelete::Unset".into(),
                OnDelete::Then(e) => format!("::surqlc::ir::OnDelete::Then({})", s(e)),
            })
        )),
        some(&c.permissions, permissions)
    )
}

fn index(i: &Index) -> String {
    let kind = match &i.kind {
        IndexKind::Plain => "::surqlc::ir::IndexKind::Plain".to_owned(),
        IndexKind::Unique => "::surqlc::ir::IndexKind::Unique".to_owned(),
        IndexKind::FullText { analyzer, bm25, highlights } => format!(
            "::surqlc::ir::IndexKind::FullText {{ analyzer: {}, bm25: {}, highlights: {highlights} }}",
            s(analyzer),
            some(bm25, |(k1, b)| format!("({k1:?}_f64, {b:?}_f64)"))
        ),
        IndexKind::Hnsw(h) => format!(
            "::surqlc::ir::IndexKind::Hnsw(::surqlc::ir::Hnsw {{ dimension: {}, dist: {}, vector_type: {}, efc: {}, m: {} }})",
            h.dimension,
            s(&h.dist),
            s(&h.vector_type),
            some(&h.efc, |n| n.to_string()),
            some(&h.m, |n| n.to_string())
        ),
    };
    format!(
        "::surqlc::ir::Index {{ name: {}, fields: {}, kind: {kind} }}",
        s(&i.name),
        list(i.fields.iter().map(|f| s(f)))
    )
}

fn field_ref(f: &crate::ir::FieldRef) -> String {
    format!("::surqlc::ir::FieldRef {{ table: {}, field: {} }}", s(&f.table), s(&f.field))
}

fn hint(h: &ValueHint) -> String {
    match h {
        ValueHint::Distinct { field, limit } => format!("::surqlc::ir::ValueHint::Distinct {{ field: {}, limit: {limit} }}", field_ref(field)),
        ValueHint::Ids { table, limit } => format!("::surqlc::ir::ValueHint::Ids {{ table: {}, limit: {limit} }}", s(table)),
        ValueHint::Range { field } => format!("::surqlc::ir::ValueHint::Range {{ field: {} }}", field_ref(field)),
        ValueHint::Note(text) => format!("::surqlc::ir::ValueHint::Note({})", s(text)),
    }
}

fn field(f: &Field) -> String {
    format!(
        "::surqlc::ir::Field {{ name: {}, rust_name: {}, ty: {}, comment: {}, clauses: {} }}",
        s(&f.name),
        s(&f.rust_name),
        ty(&f.ty),
        opt(&f.comment),
        clauses(&f.clauses)
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
        "::surqlc::ir::Table {{ name: {}, rust_name: {}, comment: {}, kind: {kind}, schemaless: {}, enforced: {}, id: {}, permissions: {}, fields: {}, indexes: {} }}",
        s(&t.name),
        s(&t.rust_name),
        opt(&t.comment),
        t.schemaless,
        t.enforced,
        some(&t.id, ty),
        some(&t.permissions, permissions),
        list(t.fields.iter().map(field)),
        list(t.indexes.iter().map(index))
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
        list(st.value_hints.iter().map(hint)),
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
        "::surqlc::ir::Schema {{ name: {}, rust_name: {}, tables: {}, enums: {enums}, analyzers: {}, settings: {settings} }}",
        s(&schema.name),
        opt(&schema.rust_name),
        list(schema.tables.iter().map(table)),
        list(schema.analyzers.iter().map(|a| format!(
            "::surqlc::ir::Analyzer {{ name: {}, tokenizers: {}, filters: {}, comment: {} }}",
            s(&a.name),
            list(a.tokenizers.iter().map(|t| s(t))),
            list(a.filters.iter().map(|f| s(f))),
            opt(&a.comment)
        )))
    )
}
