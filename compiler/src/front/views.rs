//! What one `#[surqlc(view = "SELECT ...")]` can be checked for alone (a normal table, a SELECT, one statement); the SELECT against the schema is `codegen::views`'.

use super::clauses::TableClauses;
use super::ctxt::Ctxt;
use super::expr_check::{check_expr_shape, value_subspan};
use syn::LitStr;

/// Errors, inside the attribute string where they can point there, for a view that cannot be one.
pub fn check_one_item(cx: &Ctxt, view: &LitStr, is_relation: bool, clauses: &TableClauses) {
    if is_relation {
        cx.error_at(
            view.span(),
            "a view is a normal table (`DEFINE TABLE name TYPE NORMAL AS SELECT ...`): put `view` on a #[derive(Table)] struct",
        );
    }
    if !clauses.indexes.is_empty() {
        cx.error_at(
            view.span(),
            "a view's rows are written by the engine alone: index the tables it reads instead of the view",
        );
    }
    let text = view.value();
    let lead = text.len() - text.trim_start().len();
    let first = text.trim_start().split_whitespace().next().unwrap_or("");
    if !first.eq_ignore_ascii_case("select") {
        let at = text[..lead].chars().count();
        cx.error_at(
            value_subspan(view, at, at + first.chars().count().max(1)),
            "`view` is the SELECT the view computes: write `view = \"SELECT ... FROM table ...\"`",
        );
        return;
    }
    if let Err(err) = check_expr_shape(&text) {
        cx.error_at(
            value_subspan(view, err.start, err.end),
            format!("`view` is not one SELECT: {}", err.message),
        );
    }
}
