//! GeoJSON object literals (`{ type: 'Point', coordinates: [...] }`) of a shape the engine does not take as a geometry, so they stay plain objects.

use super::Resolver;
use crate::validate::scan::OrAll;
use crate::validate::Class;
use surrealdb_sql::literal::ObjectEntry;
use surrealdb_sql::{Expr, Literal};
use surrealdb_types::ToSql;

/// The GeoJSON geometry names the engine converts, and what their `coordinates` hold.
const SHAPES: &[(&str, &str)] = &[
    ("Point", "[longitude, latitude]: two numbers"),
    ("LineString", "a list of points, each [longitude, latitude]"),
    (
        "Polygon",
        "a list of rings, each a list of points [longitude, latitude]",
    ),
    ("MultiPoint", "a list of points, each [longitude, latitude]"),
    ("MultiLineString", "a list of lines, each a list of points"),
    ("MultiPolygon", "a list of polygons, each a list of rings"),
];

/// A number as the engine's GeoJSON conversion takes it: an int or a float literal (not a decimal).
fn number(e: &Expr) -> bool {
    matches!(e, Expr::Literal(Literal::Integer(_) | Literal::Float(_)))
}

fn list(e: &Expr) -> Option<&[Expr]> {
    match e {
        Expr::Literal(Literal::Array(items)) => Some(items),
        _ => None,
    }
}

fn point(e: &Expr) -> bool {
    list(e).is_some_and(|xy| xy.len() == 2 && xy.iter().all(number))
}

fn points(e: &Expr) -> bool {
    list(e).is_some_and(|ps| ps.iter().all(point))
}

fn polygon(e: &Expr) -> bool {
    list(e).is_some_and(|rings| !rings.is_empty() && rings.iter().all(points))
}

/// Whether `coordinates` has the shape the engine's `collect_geometry` (`surrealdb-expr`'s
/// `expr/convert/literal.rs`) needs for `kind`. Only literals are judged: any other expression
/// inside makes the answer unknown, and `None` leaves it alone.
fn shaped(kind: &str, coordinates: &Expr) -> Option<bool> {
    if !literal_only(coordinates) {
        return None;
    }
    Some(match kind {
        "Point" => point(coordinates),
        "LineString" | "MultiPoint" => points(coordinates),
        "Polygon" => polygon(coordinates),
        "MultiLineString" => list(coordinates).is_some_and(|ls| ls.iter().all(points)),
        "MultiPolygon" => list(coordinates).is_some_and(|ps| ps.iter().all(polygon)),
        _ => return None,
    })
}

/// Whether `e` is written with literals only (numbers, strings, arrays of them).
fn literal_only(e: &Expr) -> bool {
    match e {
        Expr::Literal(Literal::Array(items)) => items.iter().all(literal_only),
        Expr::Literal(Literal::Object(_) | Literal::Set(_)) => false,
        Expr::Literal(_) => true,
        _ => false,
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `{ type: 'Point', coordinates: [1.5] }`: GeoJSON the engine leaves an object.
    pub(super) fn geojson(&mut self, entries: &[ObjectEntry]) {
        if entries.len() != 2 {
            return;
        }
        let Some(kind) = entries.iter().find_map(|e| match (e.key.as_str(), &e.value) {
            ("type", Expr::Literal(Literal::String(s))) => Some(s.as_str()),
            _ => None,
        }) else {
            return;
        };
        let Some((kind, shape)) = SHAPES.iter().find(|(k, _)| *k == kind) else {
            return;
        };
        let Some(other) = entries.iter().find(|e| e.key.as_str() != "type") else {
            return;
        };
        let problem = if other.key.as_str() != "coordinates" {
            format!(
                "a GeoJSON {kind} holds its position in `coordinates`, not `{}`",
                other.key.as_str()
            )
        } else {
            match shaped(kind, &other.value) {
                Some(false) => format!("the {kind}'s coordinates {} are not {shape}", other.value.to_sql()),
                _ => return,
            }
        };
        let written = other.value.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        self.error(
            span,
            Class::GeometryShape,
            format!("{problem}: the engine keeps the object as a plain object, not a geometry"),
            format!(
                "write coordinates as {shape} (int or float literals, longitude first), or the point itself as (longitude, latitude)"
            ),
        );
    }
}
