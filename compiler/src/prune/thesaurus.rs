//! A small built-in business thesaurus: everyday words for what tables of business schemas hold, added to each table's full-text document (not to the question) so BM25 finds `supplier` when a question says "vendor"; and the English function words a question's words are searched without.
//!
//! Each group is a set of words people use for one kind of thing; a table whose name holds a
//! word of a group gets the other words of the group in its `schema_doc.doc`. The words are
//! general business vocabulary (CRM, ERP, HR, finance, logistics), not any one schema's: what
//! a schema calls its own things more specifically, it says with `#[surqlc(aka(...))]`.
//! Words pass through the same analyzer as the question (lower case, snowball stemming), so
//! one form of each is enough.

/// Synonym groups. A word may be in more than one group.
const GROUPS: &[&[&str]] = &[
    &["customer", "client", "buyer", "shopper", "purchaser", "account"],
    &["supplier", "vendor", "provider", "seller"],
    &["employee", "staff", "worker", "personnel", "colleague"],
    &["candidate", "applicant"],
    &["product", "item", "goods", "article", "merchandise", "sku"],
    &["order", "purchase"],
    &["invoice", "bill"],
    &["payment", "remittance"],
    &["opportunity", "deal", "pipeline"],
    &["lead", "prospect"],
    &["quote", "quotation", "offer", "proposal"],
    &["contract", "agreement"],
    &["warehouse", "depot", "site", "storehouse"],
    &["shipment", "delivery", "consignment", "dispatch"],
    &["carrier", "courier", "haulier", "transporter"],
    &["vehicle", "truck", "van", "car", "lorry"],
    &["salary", "pay", "wage", "compensation"],
    &["payslip", "paycheck", "pay", "wage"],
    &["leave", "vacation", "holiday", "absence"],
    &["review", "appraisal", "evaluation", "assessment", "rating"],
    &["opening", "vacancy", "position"],
    &["department", "division", "team", "unit"],
    &["complaint", "grievance"],
    &["ticket", "case", "issue", "incident"],
    &["campaign", "promotion", "promo"],
    &["coupon", "voucher", "code"],
    &["competitor", "rival", "competition"],
    &["bonus", "incentive", "reward"],
    &["loan", "borrowing", "debt", "credit"],
    &["depreciation", "writedown", "amortisation"],
    &["asset", "equipment", "device", "hardware"],
    &["brand", "maker", "manufacturer", "label"],
    &["category", "range", "section", "group"],
    &["stock", "inventory"],
    &["lot", "batch"],
    &["budget", "plan", "allocation"],
    &["journal", "ledger", "books", "posting"],
    &["case", "lawsuit", "dispute", "litigation"],
    &["policy", "rule", "guideline", "code"],
    &["certification", "certificate", "accreditation"],
    &["incident", "breach", "attack", "leak"],
    &["license", "licence", "seat"],
    &["room", "space"],
    &["booking", "reservation"],
    &["lease", "rent", "rental", "tenancy"],
    &["training", "course", "class"],
    &["course", "training", "class"],
    &["skill", "qualification", "competence", "ability"],
    &["benefit", "perk"],
    &["termination", "leaver", "exit", "resignation", "dismissal"],
    &["onboarding", "starter", "hire", "induction"],
    &["timesheet", "hours"],
    &["milestone", "deadline", "deliverable"],
    &["risk", "threat"],
    &["component", "part"],
    &["materials", "parts"],
    &["machine", "equipment"],
    &["downtime", "breakdown", "outage", "stoppage"],
    &["inspection", "check", "quality"],
    &["scrap", "waste", "reject"],
    &["address", "location"],
    &["route", "run", "round"],
    &["trip", "journey", "run"],
    &["fuel", "diesel", "petrol", "refuel"],
    &["maintenance", "service", "repair"],
    &["customs", "export", "import"],
    &["exception", "damage", "delay", "problem"],
    &["visit", "traffic", "website"],
    &["email", "mail", "newsletter"],
    &["event", "fair", "conference", "webinar", "exhibition"],
    &["spend", "cost", "advertising", "ads"],
    &["expense", "claim", "reimbursement"],
    &["transaction", "statement"],
    &["exchange", "fx", "conversion"],
    &["tax", "vat"],
    &["survey", "satisfaction", "feedback"],
    &["return", "rma", "refund"],
    &["request", "application"],
    &["finding", "observation"],
    &["region", "territory", "area"],
    &["target", "quota", "goal"],
    &["goal", "objective", "target"],
    &["commission", "earnings"],
    &["note", "comment", "remark"],
    &["activity", "call", "meeting"],
    &["attribute", "spec", "specification", "property"],
    &["warranty", "guarantee"],
    &["bundle", "kit", "package"],
    &["package", "parcel", "box"],
    &["receipt", "delivery", "arrival"],
    &["requisition", "request"],
    &["evaluation", "scorecard", "rating"],
    &["rfq", "tender", "bid"],
    &["bid", "tender", "offer"],
    &["grade", "band", "level"],
    &["project", "engagement"],
    &["task", "todo", "assignment"],
    &["payroll", "pay", "wage"],
    &["deduction", "withholding"],
    &["withholding", "tax"],
    &["credit", "refund"],
    &["segment", "audience", "group"],
    &["sales", "sell", "sold", "selling", "revenue"],
    &["purchase", "buy", "bought", "procurement"],
    &["po", "purchase"],
    &["driver", "drive", "drove", "driving"],
    &[
        "work_order",
        "production",
        "produce",
        "manufacture",
        "factory",
        "make",
        "made",
    ],
    &["return", "send", "sent", "back"],
    &["acknowledged", "confirmed", "confirm", "signed"],
    &["bin", "shelf", "location"],
    &["scrap", "throw", "discard"],
    &["incident", "hack", "hacking"],
    &["reports_to", "boss", "manager", "supervisor"],
    &["price", "cost", "charge"],
];

/// Words that name people: a table named by one (or whose description's first sentence says
/// "person" or "people") is where "who" and "whom" lead.
const PERSON_WORDS: &[&str] = &[
    "person",
    "people",
    "employee",
    "staff",
    "worker",
    "contact",
    "candidate",
    "applicant",
    "driver",
    "member",
    "user",
    "customer",
    "client",
    "patient",
    "student",
    "teacher",
    "author",
    "agent",
    "representative",
    "rep",
    "manager",
    "owner",
    "guest",
    "visitor",
    "volunteer",
    "tenant",
    "subscriber",
    "player",
    "passenger",
    "traveller",
    "doctor",
    "nurse",
    "rider",
    "attendee",
    "participant",
    "speaker",
    "reviewer",
    "buyer",
    "seller",
    "landlord",
    "contractor",
];

/// The words a person table gets: what a question about someone says instead of the table's name.
pub const PERSON_HUB_WORDS: &str = "who whom person people someone";

/// Whether `word` (lower-case) names people.
pub fn is_person_word(word: &str) -> bool {
    PERSON_WORDS.contains(&word)
}

/// The other words of every group that `word` (lower-case; a table name's word, or the whole
/// name with its `_`) belongs to, in group order, each once. A plural `s` does not matter.
pub fn synonyms(word: &str) -> Vec<&'static str> {
    let stem = |w: &str| w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w).to_owned();
    let key = stem(word);
    let mut out: Vec<&'static str> = Vec::new();
    for group in GROUPS.iter().filter(|g| g.iter().any(|w| stem(w) == key)) {
        for w in group.iter().filter(|w| stem(w) != key) {
            if !out.contains(w) {
                out.push(w);
            }
        }
    }
    out
}

/// English function words that match nearly every question, so they would rank examples by
/// nothing the question is about: left out of the question's words before BM25 ranks the pool,
/// and (less the words a schema's names use: `facts::schema_stop_words`) before it searches the tables.
#[cfg(feature = "codegen")]
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "by", "with", "from", "at", "as", "is", "are", "was",
    "were", "be", "been", "do", "does", "did", "have", "has", "had", "what", "which", "who", "whom", "whose", "when",
    "where", "why", "how", "our", "ours", "us", "we", "i", "me", "my", "you", "your", "it", "its", "this", "that",
    "these", "those", "there", "their", "they", "them", "can", "could", "would", "should", "will", "please", "show",
    "list", "give", "tell", "get", "find",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_symmetric_lookups() {
        assert!(synonyms("supplier").contains(&"vendor"));
        assert!(synonyms("vendor").contains(&"supplier"));
        assert!(synonyms("employee").contains(&"staff"));
        assert!(is_person_word("applicant") && !is_person_word("invoice"));
        assert!(synonyms("zebra").is_empty());
        // Each word once, never the word itself.
        let s = synonyms("course");
        assert!(!s.contains(&"course"));
        assert_eq!(s.iter().filter(|w| **w == "training").count(), 1);
    }
}
