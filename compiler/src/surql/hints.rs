//! The SurrealQL behind each `fn::value_hints()` line: distinct values, record ids, ranges and notes, each bounded.
//!
//! A distinct or id hint lists at most its `limit` values; past it the line gives the count and
//! the first `limit` (`fn::hint_line` in `schema.surql`), so a hint never grows with the table.

use crate::ir::{ValueHint, ValueHint::*};
use crate::surql::{field_ident, path_ident, quote_string};

/// A label for the hint, as its line starts (`customer.country`, `person ids`, `meeting.time range`).
pub fn label(hint: &ValueHint) -> String {
    match hint {
        Distinct { field, .. } => format!("{}.{}", field.table, field.field),
        Ids { table, .. } => format!("{table} ids"),
        Range { field } => format!("{}.{} range", field.table, field.field),
        Span { field } => format!("{}.{} span", field.table, field.field),
        Note(text) => text.clone(),
    }
}

/// The SurrealQL expression that evaluates to the hint's line.
pub fn expression(hint: &ValueHint) -> String {
    match hint {
        Distinct { field, limit } => {
            let f = path_ident(&field.field, field_ident);
            format!(
                "fn::hint_line({}, (SELECT VALUE {f} FROM {t} WHERE {f} != NONE GROUP BY {f}).sort(), NONE, {limit})",
                quote_string(&label(hint)),
                t = field.table,
            )
        }
        Ids { table, limit } => {
            // The key as a record id spells it after `table:`: a plain name or number as is, other
            // text in ⟨⟩ (which every SurrealDB parser reads; 3.x prints backticks, which 2.x does not read).
            let prefix = table.chars().count() + 1;
            format!(
                "fn::hint_line({}, (SELECT VALUE id FROM {table} LIMIT {limit}).map(|$v| {{ LET $k = \
                    record::id($v); RETURN IF type::is_string($k) AND !string::matches($k, \
                    /^[A-Za-z_][A-Za-z0-9_]*$/) {{ '⟨' + $k.replace('⟩', '\\\\⟩') + '⟩' }} ELSE {{ (<string> \
                    $v).slice({prefix}) }}; }}), (SELECT count() FROM {table} GROUP ALL)[0].count ?? 0, \
                    {limit})",
                quote_string(&label(hint)),
            )
        }
        Range { field } => {
            let f = path_ident(&field.field, field_ident);
            let t = &field.table;
            format!(
                "{} + \": \" + <string> (SELECT VALUE {f} FROM {t} WHERE {f} != NONE ORDER BY {f} ASC LIMIT \
                    1)[0] + \" to \" + <string> (SELECT VALUE {f} FROM {t} WHERE {f} != NONE ORDER BY {f} DESC \
                    LIMIT 1)[0]",
                quote_string(&label(hint)),
            )
        }
        Span { field } => {
            // One scan for both ends (`time::min`/`time::max` under GROUP ALL), not three queries:
            // with no value, GROUP ALL's row gives NULL, and `?? NONE` drops the line.
            let f = path_ident(&field.field, field_ident);
            format!(
                "(SELECT VALUE {} + \": \" + time::format(time::min({f}), '%Y-%m-%d') + \" to \" + \
                    time::format(time::max({f}), '%Y-%m-%d') FROM {t} WHERE {f} != NONE GROUP ALL)[0] ?? NONE",
                quote_string(&label(hint)),
                t = field.table,
            )
        }
        Note(text) => quote_string(text),
    }
}

/// The hints `fn::value_hints_of` runs from data rather than from their own SurrealQL, by table.
///
/// A span and a distinct-values hint are one query each whose table and field can be named at run
/// time (`type::table`, `type::field`), so `schema.surql` writes them as rows of a parameter,
/// `[index, kind, label, field, table, limit]`, and one generic query in the function runs each: the
/// engine parses a function's body on every call, and a hundred hint queries written out cost more
/// to parse than to run. The other hints (`others`) keep their own SurrealQL, with their index.
pub struct HintPlan {
    /// `{ table: [[index, kind, label, field, table, limit], ...], ... }`, a SurrealQL object.
    pub specs: String,
    /// `(index, table, expression)` of each other hint; a note has no table (every prompt keeps it).
    pub others: Vec<(usize, Option<String>, String)>,
}

/// Splits the schema's hints into [`HintPlan`]'s data rows and written-out expressions.
pub fn plan(hints: &[ValueHint]) -> HintPlan {
    let mut by_table: Vec<(String, Vec<String>)> = Vec::new();
    let mut others = Vec::new();
    for (index, hint) in hints.iter().enumerate() {
        let row = match hint {
            Span { field } => Some((field, "span", 0)),
            Distinct { field, limit } => Some((field, "distinct", *limit)),
            _ => None,
        };
        match row {
            Some((field, kind, limit)) => {
                let spec = format!(
                    "[{index}, \"{kind}\", {}, {}, {}, {limit}]",
                    quote_string(&label(hint)),
                    quote_string(&path_ident(&field.field, field_ident)),
                    quote_string(&field.table),
                );
                match by_table.iter_mut().find(|(t, _)| *t == field.table) {
                    Some((_, rows)) => rows.push(spec),
                    None => by_table.push((field.table.clone(), vec![spec])),
                }
            }
            None => others.push((index, hint.table().map(str::to_owned), expression(hint))),
        }
    }
    let entries: Vec<String> = by_table
        .iter()
        .map(|(t, rows)| format!("{}: [{}]", quote_string(t), rows.join(", ")))
        .collect();
    let specs = if entries.is_empty() {
        "{}".to_string()
    } else {
        format!("{{ {} }}", entries.join(", "))
    };
    HintPlan { specs, others }
}
