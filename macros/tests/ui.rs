//! The derives' error messages, as a user sees them from rustc (trybuild). `TRYBUILD=overwrite` regenerates the `.stderr` files.

#[test]
fn attribute_errors_point_at_their_spans() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
