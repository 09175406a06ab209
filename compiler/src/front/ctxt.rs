//! Collects every error found while reading a schema, so one run reports them all.

use proc_macro2::Span;
use std::cell::RefCell;
use std::fmt::Display;

/// An error sink threaded through the front end. `check` must be called before drop.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    /// Lints: problems that do not stop the build (see `schema_checks::lints`).
    warnings: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
            warnings: RefCell::new(Vec::new()),
        }
    }

    /// Records an error at the span of `tokens`.
    pub fn error_spanned_by<T: quote::ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.syn_error(syn::Error::new(span, message));
    }

    pub fn syn_error(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// Records a warning at `span`: reported, but the schema still compiles.
    pub fn warn_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.warnings.borrow_mut().push(syn::Error::new(span, message));
    }

    /// The warnings recorded so far, in the order found.
    pub fn take_warnings(&self) -> Vec<syn::Error> {
        std::mem::take(&mut self.warnings.borrow_mut())
    }

    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Ends collection: `Ok` if nothing was recorded, else every error in the order found.
    pub fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

/// A value with the span it was written at, for errors found later.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}
