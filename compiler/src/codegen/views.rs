//! Each view's SELECT (`#[surqlc(view = "...")]`) checked against the schema by the validator, and its struct's fields against the SELECT's projection (name and type); every problem at its place in the Rust source.

use crate::diagnostic::Diagnostic;
use crate::front::positions::Positions;
use crate::ir::Schema;

/// The problems of every view of `schema` (empty when it has none, or all are right).
pub fn check(schema: &Schema, positions: &Positions) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for table in schema.tables.iter().filter(|t| t.view.is_some()) {
        let Some(source) = positions.view(&table.name) else {
            continue;
        };
        #[cfg(feature = "validate")]
        out.extend(checked::view(schema, table, source));
        #[cfg(not(feature = "validate"))]
        out.push(source.at(0, 1, crate::front::functions::NEEDS_PARSER.into()));
    }
    out
}

#[cfg(feature = "validate")]
mod checked {
    use crate::diagnostic::Diagnostic;
    use crate::front::positions::ViewSource;
    use crate::ir::{Schema, Table};
    use crate::validate::{Options, Ty};

    /// One view: the validator's errors inside the string, then fields against projections.
    pub(super) fn view(schema: &Schema, table: &Table, source: &ViewSource) -> Vec<Diagnostic> {
        let text = table.view.as_deref().unwrap_or_default();
        // The engine computes a view as the owner: every table may be read, exposed or not.
        let mut all = schema.clone();
        all.settings.exposed = schema.tables.iter().map(|t| t.name.clone()).collect();
        let report = crate::validate::validate_with(&all, text, &Options::for_named_queries());
        let chars = |byte: usize| text.get(..byte.min(text.len())).map_or(0, |t| t.chars().count());
        let mut out: Vec<Diagnostic> = report
            .errors()
            .map(|d| {
                source.at(
                    chars(d.span.start),
                    chars(d.span.end),
                    format!("in view `{}`: {d}", table.name),
                )
            })
            .collect();
        if !out.is_empty() {
            return out;
        }
        out.extend(clauses(table, source));
        let projections = expand_all(schema, &report.projections);
        out.extend(projection(table, source, &projections));
        out
    }

    /// The projections with `*` over one table replaced by that table's fields, as the engine
    /// writes them into each view row (a view's own `id` aside); a projection written after `*`
    /// replaces the field of its name.
    fn expand_all(schema: &Schema, projections: &[crate::validate::Projection]) -> Vec<crate::validate::Projection> {
        let mut out: Vec<crate::validate::Projection> = Vec::new();
        for p in projections {
            let source = match (&p.name[..], &p.ty) {
                ("*", Ty::Record(name)) => schema.table(name),
                _ => None,
            };
            match source {
                Some(source) => {
                    out.extend(
                        source
                            .fields
                            .iter()
                            .filter(|f| f.name != "id")
                            .map(|f| crate::validate::Projection {
                                name: f.name.clone(),
                                ty: Ty::of_field(f),
                            }),
                    )
                }
                None => {
                    out.retain(|q| q.name != p.name);
                    out.push(p.clone());
                }
            }
        }
        out
    }

    /// The engine writes a view's rows itself: a clause that acts on writes would never run.
    fn clauses(table: &Table, source: &ViewSource) -> Vec<Diagnostic> {
        table
            .fields
            .iter()
            .filter_map(|f| {
                let c = &f.clauses;
                let clause = [
                    (c.default.is_some(), "default"),
                    (c.value.is_some(), "value"),
                    (c.computed.is_some(), "computed"),
                    (c.assert.is_some(), "assert"),
                    (c.readonly, "readonly"),
                    (c.reference.is_some(), "reference"),
                ]
                .into_iter()
                .find(|(set, _)| *set)?
                .1;
                Some(source.at_field(
                    Some(&f.name),
                    format!("`{}` is a field of the view `{}`, whose rows the engine computes from its SELECT: `{clause}` would never run; compute it in the view's SELECT", f.name, table.name),
                ))
            })
            .collect()
    }

    /// Each projection a field of the struct, of its type; each field a projection.
    fn projection(table: &Table, source: &ViewSource, projections: &[crate::validate::Projection]) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let select = table.view.as_deref().unwrap_or_default();
        for p in projections {
            if p.name == "*" || p.name == "VALUE" {
                out.push(source.at(0, 6.min(select.chars().count()), format!(
                    "the view `{}` must name what it computes (`SELECT a, count() AS n ...`), so its struct's fields can be checked against it",
                    table.name
                )));
                continue;
            }
            let at = select.find(&p.name).map(|b| select[..b].chars().count());
            let place = |message: String| match at {
                Some(a) => source.at(a, a + p.name.chars().count(), message),
                None => source.at(0, 1, message),
            };
            match table.field(&p.name) {
                None => out.push(place(format!(
                    "the view `{}` computes `{}`, but `{}` has no field `{}`: add it (its type: {}) or alias the projection to a field's name",
                    table.name, p.name, table.rust_name, p.name, p.ty
                ))),
                Some(field) => {
                    let declared = Ty::of(&field.ty);
                    if !fits(&declared, &p.ty) {
                        out.push(source.at_field(Some(&field.name), format!(
                            "the view `{}` computes `{}` as {}, but the field is declared {}: give it the type the SELECT computes",
                            table.name, p.name, p.ty, declared
                        )));
                    }
                }
            }
        }
        for field in &table.fields {
            if !projections.iter().any(|p| p.name == field.name) {
                out.push(source.at_field(
                    Some(&field.name),
                    format!(
                        "`{}` is a field of the view `{}`, but its SELECT does not compute it: every row would \
                        lack it; project it (`... AS {}`) or remove the field",
                        field.name, table.name, field.name
                    ),
                ));
            }
        }
        out
    }

    /// Whether a field declared `declared` holds what the view computes as `computed` (an unknown
    /// type cannot be refuted; a number the data decides fits any numeric field, and a field
    /// declared `number` holds every numeric kind, as the engine stores one; an option only an option).
    fn fits(declared: &Ty, computed: &Ty) -> bool {
        match (declared, computed) {
            (_, Ty::Any) | (Ty::Any, _) => true,
            (Ty::Option(d), Ty::Option(c)) => fits(d, c),
            (Ty::Option(d), c) => fits(d, c),
            (_, Ty::Option(_)) => false,
            (Ty::Array(d), Ty::Array(c)) => fits(d, c),
            (Ty::String, Ty::Literal(_)) => true,
            (Ty::Literal(d), Ty::Literal(c)) => c.iter().all(|v| d.contains(v)),
            (d, Ty::Number) => d.is_numeric(),
            (Ty::Number, Ty::Int | Ty::Float | Ty::Decimal) => true,
            (Ty::AnyObject, Ty::Object(_) | Ty::AnyObject) => true,
            (d, c) => d == c,
        }
    }
}
