//! An owner route (`in<-placed<-customer`) read into steps: the SurrealQL path from a row to the end user it belongs to.
//!
//! A route is a field path and graph steps, the subset of SurrealQL's idioms a permission can
//! follow from a row: `in`, `buyer.account`, `<-placed<-customer`, `in<-placed<-customer`,
//! `->owned_by->person`. The front end checks each step against the schema; `access` writes the
//! route into the owned table's select permission as written.

/// One step of a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// A field of the current rows (`in`, `buyer`, or `account` after a `.`).
    Field(&'a str),
    /// `->name`: a relation leaving the current rows, or the table at its far end.
    Out(&'a str),
    /// `<-name`: a relation arriving at the current rows, or the table at its near end.
    In(&'a str),
}

/// A step with the byte offset where it starts in the route, for errors inside the attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At<'a> {
    pub step: Step<'a>,
    pub offset: usize,
}

/// Why a route could not be read, and at which byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteError {
    pub offset: usize,
    pub message: String,
}

/// The steps of `route`, or where it stops being a route.
pub fn parse(route: &str) -> Result<Vec<At<'_>>, RouteError> {
    let bytes = route.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    if route.is_empty() {
        return Err(RouteError {
            offset: 0,
            message: "an owner route cannot be empty; e.g. `in`, or `<-placed<-customer`".into(),
        });
    }
    while i < bytes.len() {
        let start = i;
        // 0: a field, 1: `->`, 2: `<-`.
        let arrow = if route[i..].starts_with("->") {
            i += 2;
            1
        } else if route[i..].starts_with("<-") {
            i += 2;
            2
        } else if bytes[i] == b'.' && !steps.is_empty() {
            i += 1;
            0
        } else if steps.is_empty() {
            0
        } else {
            return Err(RouteError {
                offset: i,
                message: format!(
                    "expected `.field`, `->name` or `<-name` here, found `{}`",
                    route[i..].chars().next().unwrap_or(' ')
                ),
            });
        };
        let name_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let name = &route[name_start..i];
        if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
            return Err(RouteError {
                offset: name_start,
                message: "expected a table or field name here (letters, digits and `_`)".into(),
            });
        }
        steps.push(At {
            step: match arrow {
                1 => Step::Out(name),
                2 => Step::In(name),
                _ => Step::Field(name),
            },
            offset: start,
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(route: &str) -> Vec<Step<'_>> {
        parse(route).unwrap().into_iter().map(|a| a.step).collect()
    }

    #[test]
    fn routes_read_as_steps() {
        assert_eq!(steps("in"), [Step::Field("in")]);
        assert_eq!(steps("buyer.account"), [Step::Field("buyer"), Step::Field("account")]);
        assert_eq!(steps("<-placed<-customer"), [Step::In("placed"), Step::In("customer")]);
        assert_eq!(
            steps("in<-placed<-customer"),
            [Step::Field("in"), Step::In("placed"), Step::In("customer")]
        );
        assert_eq!(parse("in<-placed").unwrap()[1].offset, 2);
    }

    #[test]
    fn what_is_not_a_route_says_where() {
        assert_eq!(parse("").unwrap_err().offset, 0);
        assert_eq!(parse("in <-placed").unwrap_err().offset, 2);
        assert_eq!(parse("in<-").unwrap_err().offset, 4);
        assert_eq!(parse("<-placed WHERE x").unwrap_err().offset, 8);
        assert_eq!(parse("1abc").unwrap_err().offset, 0);
        assert_eq!(parse("in.").unwrap_err().offset, 3);
    }
}
