//! Compile-fail cases (`tests/ui/*.rs`) for the typestate metrics requests and for the
//! `#[non_exhaustive]` generated types (no struct literal, no exhaustive match outside the
//! crate): each must fail to compile with the message in its `.stderr`.
//!
//! After a deliberate change to the API or its diagnostics, or a new compiler release, rewrite
//! the expected messages with `TRYBUILD=overwrite cargo test -p baseten-tests --test it ui` and
//! review the diff.

#[test]
fn wrong_combinations_do_not_compile() {
    let cases = baseten_tests::tests_dir().join("ui").join("*.rs");
    trybuild::TestCases::new().compile_fail(cases);
}
