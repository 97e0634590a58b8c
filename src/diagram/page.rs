//! A variant's page.

use crate::board::Ruleset;

pub fn variant_page(rules: &Ruleset) -> String {
    rules.variant.name.clone()
}
