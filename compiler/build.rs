//! Tells cargo that the crate embeds `../templates` (with `include_str!`), so that editing a template
//! rebuilds every copy of the crate, build-dependency copies included; cargo's own tracking of
//! files outside the package does not reach all of them.

fn main() {
    println!("cargo:rerun-if-changed=../templates");
    println!("cargo:rerun-if-changed=build.rs");
}
