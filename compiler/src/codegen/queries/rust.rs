//! The template's view of the named queries: per query its function, constant, argument list, return type and row structs, every Rust type spelled in full (the `queries` module imports nothing).

use super::shape::{Query, RType};
use crate::surql::named::Returns;
use serde::Serialize;

#[derive(Serialize)]
pub struct QueryContext {
    function: String,
    /// The constant holding the query text.
    constant: String,
    name: String,
    text: String,
    doc: String,
    params: Vec<ParamContext>,
    /// The function's `Ok` type.
    returns: String,
    /// The row type (`R` of the runtime call).
    row: String,
    /// `many`, `opt` or `one` (the runtime function).
    call: &'static str,
    structs: Vec<StructContext>,
}

#[derive(Serialize)]
struct ParamContext {
    name: String,
    ident: String,
    rust_type: String,
    bind: String,
}

#[derive(Serialize)]
struct StructContext {
    name: String,
    doc: String,
    /// Debug, Clone and PartialEq are derived when no field holds a type of the application's
    /// (an enum or a table struct, which may not implement them).
    derives: bool,
    fields: Vec<FieldContext>,
}

#[derive(Serialize)]
struct FieldContext {
    key: String,
    ident: String,
    rust_type: String,
}

/// Whether `t` is built of runtime and std types and derivable structs only (`Link<T>` implements
/// its traits for any `T`).
fn own_types_only(t: &RType, shape: &super::Shape) -> bool {
    match t {
        RType::Enum(_) | RType::Row(_) | RType::Input { .. } => false,
        RType::Struct(name) => derivable(name, shape),
        RType::Vec(t) | RType::Option(t) => own_types_only(t, shape),
        _ => true,
    }
}

/// Whether the generated struct `name` can derive Debug, Clone and PartialEq.
fn derivable(name: &str, shape: &super::Shape) -> bool {
    shape
        .structs
        .iter()
        .find(|s| s.name == name)
        .is_some_and(|s| s.fields.iter().all(|f| own_types_only(&f.ty, shape)))
}

/// The named queries as the template reads them; `types` is the path of the application's types
/// as seen from inside the `queries` module. A name two queries' structs would share is an error.
pub fn contexts(queries: &[Query], types: &str) -> Result<Vec<QueryContext>, String> {
    let mut out = Vec::new();
    let mut taken: Vec<(String, String)> = Vec::new();
    for q in queries {
        let Some(shape) = &q.shape else { continue };
        // The names the module itself gives: `EXAMPLES` and `seed_examples`.
        if matches!(q.name.as_str(), "examples" | "seed_examples") {
            return Err(format!(
                "a named query may not be called `{}`: the generated `queries` module has `EXAMPLES` and `seed_examples` of its own; rename it",
                q.name
            ));
        }
        let mut structs = Vec::new();
        for s in &shape.structs {
            if let Some((_, other)) = taken.iter().find(|(n, _)| *n == s.name) {
                return Err(format!(
                    "named queries `{other}` and `{}` would both generate the struct `{}`; rename one of them",
                    q.name, s.name
                ));
            }
            taken.push((s.name.clone(), q.name.clone()));
            let nested = s.name.len() > super::shape::struct_name(&q.name).len();
            structs.push(StructContext {
                name: s.name.clone(),
                doc: if nested {
                    format!("An object in the rows of query `{}`.", q.name)
                } else {
                    format!("One row of query `{}`.", q.name)
                },
                derives: derivable(&s.name, shape),
                fields: s
                    .fields
                    .iter()
                    .map(|f| FieldContext {
                        key: f.key.clone(),
                        ident: f.ident.clone(),
                        rust_type: f.ty.rust(types),
                    })
                    .collect(),
            });
        }
        let row = shape.row.rust(types);
        let (returns, call) = match q.returns {
            Returns::Many => (format!("::std::vec::Vec<{row}>"), "many"),
            Returns::Opt => (format!("::std::option::Option<{row}>"), "opt"),
            Returns::One | Returns::Value => (row.clone(), "one"),
            Returns::Exec => ("()".to_owned(), "exec"),
        };
        let mut doc: Vec<String> = q.questions.clone();
        if !doc.is_empty() {
            doc.push(String::new());
        }
        let shape_doc = match q.returns {
            Returns::Many => "every row",
            Returns::Opt => "the first row, if any",
            Returns::One => "the one row (an error when there is none)",
            Returns::Value => "the value (an error when there is none)",
            Returns::Exec => "run for its effect; it answers nothing",
        };
        doc.push(format!(
            "Named query `{}` (`:{}`): {shape_doc}. Its text is [`{}`]; parameters are bound, never spliced in.",
            q.name,
            q.returns.name(),
            q.name.to_uppercase()
        ));
        out.push(QueryContext {
            function: crate::codegen::idents::rust_ident(&q.name),
            constant: q.name.to_uppercase(),
            name: q.name.clone(),
            text: q.text.clone(),
            doc: doc.join("\n"),
            params: shape
                .params
                .iter()
                .map(|p| ParamContext {
                    name: p.name.clone(),
                    ident: p.ident.clone(),
                    rust_type: p.ty.argument(types),
                    bind: p.ty.bind(&p.ident),
                })
                .collect(),
            returns,
            row,
            call,
            structs,
        });
    }
    Ok(out)
}

/// The few-shot examples the queries make: each `-- question:` of a query without parameters
/// (the agent's runner binds none), with the query's constant.
#[derive(Serialize)]
pub struct ExampleContext {
    question: String,
    constant: String,
}

pub fn examples(queries: &[Query]) -> Vec<ExampleContext> {
    queries
        .iter()
        .filter(|q| q.shape.as_ref().is_some_and(|s| s.params.is_empty()))
        .flat_map(|q| {
            q.questions.iter().map(|question| ExampleContext {
                question: question.clone(),
                constant: q.name.to_uppercase(),
            })
        })
        .collect()
}
