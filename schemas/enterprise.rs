//! An enterprise resource planning schema of 168 tables across sales, catalogue, inventory,
//! procurement, HR, payroll, finance, support, logistics, marketing, manufacturing, IT,
//! projects and legal: the benchmark for question-specific pruning (`docs/pruning.md`).
//!
//! Its whole schema block costs far more than a prompt should carry, so the `Schema` item
//! turns on `prune(...)`: the prompt keeps only the tables a question needs, within 2,000
//! tokens. `enterprise.questions.json` holds the benchmark's questions and the tables each
//! one needs; `enterprise.seed.surql` a little data.

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Decimal, Link};
use surqlc_macros::{Literal, Relation, Schema, Table};

/// The prompt of the company's data assistant.
#[derive(Schema)]
#[surqlc(
    value_hints(
        Customer::segment,
        SalesOrder::status,
        Invoice::status,
        SupportTicket::priority,
        SupportTicket::status,
        Shipment::status,
        Employee::employment_type,
        LeaveRequest::kind
    ),
    examples(dimension = 256, k = 3, ef = 40),
    prune(budget = 2000, mix = "fulltext+vector"),
    agent(user = "analyst_bot", token = "1h", session = "8h")
)]
pub struct Enterprise;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    Enterprise,
    MidMarket,
    SmallBusiness,
    Consumer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum LeadStatus {
    New,
    Contacted,
    Qualified,
    Disqualified,
    Converted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum OpportunityStage {
    Prospecting,
    Proposal,
    Negotiation,
    Won,
    Lost,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    Draft,
    Confirmed,
    Shipped,
    Delivered,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum InvoiceStatus {
    Draft,
    Sent,
    Paid,
    Overdue,
    Void,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum EmploymentType {
    FullTime,
    PartTime,
    Contractor,
    Intern,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum LeaveKind {
    Vacation,
    Sick,
    Parental,
    Unpaid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalStatus {
    Pending,
    Approved,
    Rejected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum TicketPriority {
    Low,
    Normal,
    High,
    Urgent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum TicketStatus {
    Open,
    Waiting,
    Resolved,
    Closed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum ShipmentStatus {
    Planned,
    InTransit,
    Delivered,
    Exception,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Email,
    Phone,
    Chat,
    Web,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum AccountType {
    Asset,
    Liability,
    Equity,
    Revenue,
    Expense,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum AssetState {
    InUse,
    InStock,
    Repair,
    Retired,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "snake_case")]
pub enum ProjectStatus {
    Planned,
    Active,
    OnHold,
    Done,
}

// ---------------------------------------------------------------- Sales and customers

/// A company or person that buys from us. Orders: customer->placed->sales_order. Contacts: customer->employs_contact->contact.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("client", "account"))]
pub struct Customer {
    /// Legal or display name of the customer.
    pub name: String,
    /// Market segment, used for pricing tiers and revenue reports.
    pub segment: Segment,
    /// ISO-3166 alpha-2 country code of the billing address.
    pub country: String,
    /// Employee who owns the customer relationship.
    pub account_manager: Option<Link<Employee>>,
    /// Most the customer may owe us at once, in EUR.
    pub credit_limit: Decimal,
    /// When the customer record was created.
    pub created_at: Datetime,
}

/// A person at a customer we talk to: buyer, decision maker or user.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Contact {
    /// First and last name of the contact.
    pub full_name: String,
    /// Work email address.
    pub email: String,
    /// Direct phone number, if known.
    pub phone: Option<String>,
    /// Job title at the customer, e.g. 'Head of Procurement'.
    pub job_title: Option<String>,
}

/// Links a customer (in) to one of its contacts (out). Traverse: customer->employs_contact->contact.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct EmploysContact {
    pub r#in: Link<Customer>,
    pub out: Link<Contact>,
    /// Whether this is the customer's main contact.
    pub primary: bool,
}

/// A prospective customer not yet qualified by sales.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("prospect"))]
pub struct Lead {
    /// Company name the lead gave.
    pub company: String,
    /// Channel through which the lead reached us.
    pub source: Channel,
    /// Qualification state of the lead.
    pub status: LeadStatus,
    /// Sales representative working the lead.
    pub owner: Option<Link<Employee>>,
    /// Lead score from 0 to 100; higher is more likely to buy.
    pub score: i64,
    /// When the lead was captured.
    pub created_at: Datetime,
}

/// A potential deal with a customer, tracked through the sales pipeline.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("deal"))]
pub struct Opportunity {
    /// Customer the deal is with.
    pub customer: Link<Customer>,
    /// Short name of the deal.
    pub title: String,
    /// Pipeline stage; 'won' and 'lost' are closed.
    pub stage: OpportunityStage,
    /// Expected deal value in EUR.
    pub amount: Decimal,
    /// Expected or actual close date.
    pub close_date: Datetime,
    /// Sales representative who owns the deal.
    pub owner: Link<Employee>,
}

/// A priced offer sent to a customer for an opportunity.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("offer", "proposal"))]
pub struct Quote {
    /// Opportunity the quote belongs to.
    pub opportunity: Link<Opportunity>,
    /// Quoted total in EUR, before tax.
    pub total: Decimal,
    /// Last day the quoted prices hold.
    pub valid_until: Datetime,
    /// Whether the customer accepted the quote.
    pub accepted: bool,
}

/// A confirmed order from a customer. Buyer: sales_order<-placed<-customer. Lines: sales_order->order_line->product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SalesOrder {
    /// Human-readable order number printed on documents.
    pub order_number: String,
    /// Fulfilment state; revenue counts 'shipped' and 'delivered' only.
    pub status: OrderStatus,
    /// When the order was confirmed.
    pub ordered_at: Datetime,
    /// ISO-4217 currency code of the order.
    pub currency: String,
    /// Employee credited with the sale.
    pub sales_rep: Option<Link<Employee>>,
    /// Region the sale is booked to.
    pub sales_region: Option<Link<SalesRegion>>,
}

/// Links a customer (in) to an order they placed (out). Traverse: customer->placed->sales_order.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Placed {
    pub r#in: Link<Customer>,
    pub out: Link<SalesOrder>,
    /// Channel the order came through.
    pub channel: Channel,
}

/// One line of a sales order: links an order (in) to a product (out). Traverse: sales_order->order_line->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct OrderLine {
    pub r#in: Link<SalesOrder>,
    pub out: Link<Product>,
    /// Units ordered.
    pub quantity: i64,
    /// Price per unit actually charged, in the order's currency. Line revenue is quantity * unit_price.
    pub unit_price: Decimal,
    /// Discount on this line, in percent.
    pub discount_pct: f64,
}

/// A geographic sales territory with its own targets.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("territory"))]
pub struct SalesRegion {
    /// Region name, e.g. 'DACH' or 'Nordics'.
    pub name: String,
    /// Regional sales manager.
    pub manager: Option<Link<Employee>>,
    /// ISO country codes the region covers.
    pub countries: Vec<String>,
}

/// A revenue target for a region or a representative in a quarter.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SalesTarget {
    /// Region the target applies to.
    pub region: Option<Link<SalesRegion>>,
    /// Representative the target applies to.
    pub employee: Option<Link<Employee>>,
    /// Quarter as 'YYYY-Qn'.
    pub quarter: String,
    /// Target revenue in EUR.
    pub amount: Decimal,
}

/// Commission earned by a sales representative on an order.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Commission {
    /// Representative who earns the commission.
    pub employee: Link<Employee>,
    /// Order the commission is paid on.
    pub sales_order: Link<SalesOrder>,
    /// Commission amount in EUR.
    pub amount: Decimal,
    /// Whether it has been paid out through payroll.
    pub paid: bool,
}

/// A named set of prices for a market or customer segment.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PriceList {
    /// Price list name, e.g. 'EU retail 2025'.
    pub name: String,
    /// ISO-4217 currency of the prices.
    pub currency: String,
    /// Customer segment it applies to; none for all.
    pub segment: Option<Segment>,
    /// First day the prices apply.
    pub valid_from: Datetime,
}

/// The price of a product (out) on a price list (in). Traverse: price_list->price_entry->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct PriceEntry {
    pub r#in: Link<PriceList>,
    pub out: Link<Product>,
    /// Unit price in the list's currency.
    pub price: Decimal,
    /// Smallest order quantity this price applies to.
    pub min_quantity: i64,
}

/// A promotional or negotiated discount rule.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Discount {
    /// Code a customer enters or a rep applies.
    pub code: String,
    /// Discount in percent.
    pub percent: f64,
    /// Customer it is reserved for, if any.
    pub customer: Option<Link<Customer>>,
    /// When the discount stops applying.
    pub expires_at: Option<Datetime>,
}

/// A signed framework agreement with a customer.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("agreement"))]
pub struct Contract {
    /// Customer that signed the contract.
    pub customer: Link<Customer>,
    /// Start of the contract term.
    pub starts_at: Datetime,
    /// End of the contract term.
    pub ends_at: Datetime,
    /// Contracted value per year in EUR.
    pub annual_value: Decimal,
    /// Whether the contract renews automatically.
    pub auto_renew: bool,
}

/// A recurring subscription of a customer to a product plan.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Subscription {
    /// Subscribing customer.
    pub customer: Link<Customer>,
    /// Subscribed product plan.
    pub plan: Link<Product>,
    /// Licensed seats.
    pub seats: i64,
    /// Recurring fee per month in EUR.
    pub monthly_fee: Decimal,
    /// When the subscription was cancelled; none while active.
    pub cancelled_at: Option<Datetime>,
}

/// A free-text note a colleague wrote about a customer.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct CustomerNote {
    /// Customer the note is about.
    pub customer: Link<Customer>,
    /// Employee who wrote it.
    pub author: Link<Employee>,
    /// The note text.
    pub body: String,
    /// When it was written.
    pub written_at: Datetime,
}

/// A call, meeting or email logged by sales against a lead or opportunity.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SalesActivity {
    /// How the activity happened.
    pub kind: Channel,
    /// Opportunity it advanced, if any.
    pub opportunity: Option<Link<Opportunity>>,
    /// Lead it worked, if any.
    pub lead: Option<Link<Lead>>,
    /// Who did it.
    pub employee: Link<Employee>,
    /// When it happened.
    pub happened_at: Datetime,
    /// What was discussed.
    pub summary: String,
}

/// A competing vendor we meet in deals.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Competitor {
    /// Competitor name.
    pub name: String,
    /// Public website.
    pub website: Option<String>,
    /// What they are known to do better.
    pub strengths: String,
}

/// A competitor (in) bidding on an opportunity (out). Traverse: competitor->competes_on->opportunity.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct CompetesOn {
    pub r#in: Link<Competitor>,
    pub out: Link<Opportunity>,
    /// Their quoted price in EUR, if known.
    pub their_price: Option<Decimal>,
}

// ---------------------------------------------------------------- Products and catalogue

/// An item we sell: physical good, service or subscription plan. Orders: product<-order_line<-sales_order.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Product {
    /// Stock keeping unit, unique per product.
    pub sku: String,
    /// Display name of the product.
    pub name: String,
    /// Catalogue category.
    pub category: Link<ProductCategory>,
    /// Current list price in EUR; historic prices live on order_line.
    pub list_price: Decimal,
    /// Standard cost per unit in EUR, for margin reports.
    pub unit_cost: Decimal,
    /// Whether it can still be ordered.
    pub discontinued: bool,
}

/// A section of the catalogue, possibly nested under a parent category.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProductCategory {
    /// Category name, e.g. 'Audio'.
    pub name: String,
    /// Parent category; none at the top level.
    pub parent: Option<Link<ProductCategory>>,
}

/// A brand or manufacturer name products are sold under.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Brand {
    /// Brand name.
    pub name: String,
    /// Country of origin, ISO-3166 alpha-2.
    pub country: Option<String>,
}

/// Links a product (in) to its brand (out). Traverse: product->made_by->brand.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct MadeBy {
    pub r#in: Link<Product>,
    pub out: Link<Brand>,
}

/// A rating and review a customer left for a product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProductReview {
    /// Reviewed product.
    pub product: Link<Product>,
    /// Customer who wrote it.
    pub customer: Link<Customer>,
    /// Stars from 1 to 5.
    pub rating: i64,
    /// Review text.
    pub text: Option<String>,
    /// When it was posted.
    pub reviewed_at: Datetime,
}

/// A set of products sold together at one price.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("package deal", "kit"))]
pub struct ProductBundle {
    /// Bundle name.
    pub name: String,
    /// Bundle price in EUR.
    pub price: Decimal,
}

/// A product (out) in a bundle (in). Traverse: product_bundle->bundle_item->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct BundleItem {
    pub r#in: Link<ProductBundle>,
    pub out: Link<Product>,
    /// Units of the product in the bundle.
    pub quantity: i64,
}

/// A technical attribute of a product, such as colour or weight.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProductAttribute {
    /// Product described.
    pub product: Link<Product>,
    /// Attribute name, e.g. 'colour'.
    pub key: String,
    /// Attribute value, e.g. 'black'.
    pub value: String,
}

/// The warranty terms of a product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("guarantee"))]
pub struct Warranty {
    /// Product covered.
    pub product: Link<Product>,
    /// Warranty length in months.
    pub months: i64,
    /// What the warranty covers.
    pub terms: String,
}

// ---------------------------------------------------------------- Inventory and warehousing

/// A site where we store stock.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Warehouse {
    /// Short warehouse code, e.g. 'BER1'.
    pub code: String,
    /// City the warehouse is in.
    pub city: String,
    /// ISO-3166 alpha-2 country code.
    pub country: String,
    /// Storage capacity in cubic metres.
    pub capacity_m3: f64,
    /// Employee running the site.
    pub manager: Option<Link<Employee>>,
}

/// A shelf or bin location inside a warehouse.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct StorageBin {
    /// Warehouse the bin is in.
    pub warehouse: Link<Warehouse>,
    /// Bin code, e.g. 'A-03-2'.
    pub code: String,
    /// Heaviest load the bin takes.
    pub max_weight_kg: f64,
}

/// How many units of a product a warehouse holds right now.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct StockLevel {
    /// Product counted.
    pub product: Link<Product>,
    /// Where it is held.
    pub warehouse: Link<Warehouse>,
    /// Units physically present.
    pub on_hand: i64,
    /// Units promised to open orders.
    pub reserved: i64,
    /// Level at which a replenishment is triggered.
    pub reorder_point: i64,
}

/// One movement of stock into, out of or between warehouses.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct StockMovement {
    /// Product moved.
    pub product: Link<Product>,
    /// Source warehouse; none for receipts.
    pub from_warehouse: Option<Link<Warehouse>>,
    /// Destination warehouse; none for issues.
    pub to_warehouse: Option<Link<Warehouse>>,
    /// Units moved.
    pub quantity: i64,
    /// When the movement was booked.
    pub moved_at: Datetime,
    /// Why: receipt, sale, transfer, scrap or count correction.
    pub reason: String,
}

/// A periodic physical count of a warehouse.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct InventoryCount {
    /// Counted warehouse.
    pub warehouse: Link<Warehouse>,
    /// When the count happened.
    pub counted_at: Datetime,
    /// Employee responsible for the count.
    pub counted_by: Link<Employee>,
    /// Lines where the count differed from the books.
    pub discrepancies: i64,
}

/// A production or supplier batch of a product, for traceability and expiry.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("batch"))]
pub struct Lot {
    /// Product of the batch.
    pub product: Link<Product>,
    /// Batch number printed on the packaging.
    pub lot_number: String,
    /// Best-before or expiry date.
    pub expires_at: Option<Datetime>,
    /// Supplier that delivered the batch.
    pub supplier: Option<Link<Supplier>>,
}

/// One serialised unit of a product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SerialNumber {
    /// Product of the unit.
    pub product: Link<Product>,
    /// Serial number.
    pub serial: String,
    /// Batch the unit came from.
    pub lot: Option<Link<Lot>>,
    /// Customer the unit was sold to.
    pub sold_to: Option<Link<Customer>>,
}

/// When and how much to reorder of a product at a warehouse.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ReorderRule {
    /// Product to replenish.
    pub product: Link<Product>,
    /// Warehouse to replenish.
    pub warehouse: Link<Warehouse>,
    /// Reorder when stock falls below this.
    pub min_qty: i64,
    /// Quantity to order each time.
    pub order_qty: i64,
    /// Supplier to order from.
    pub preferred_supplier: Option<Link<Supplier>>,
}

/// An adjustment that corrects book stock after a count.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Stocktake {
    /// Count that found the difference.
    pub count: Link<InventoryCount>,
    /// Product adjusted.
    pub product: Link<Product>,
    /// Units added (positive) or removed (negative).
    pub delta: i64,
}

/// A list of items a warehouse worker picks for an outgoing order.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PickList {
    /// Order being picked.
    pub sales_order: Link<SalesOrder>,
    /// Warehouse picking it.
    pub warehouse: Link<Warehouse>,
    /// Worker assigned.
    pub picker: Option<Link<Employee>>,
    /// When picking finished.
    pub completed_at: Option<Datetime>,
}

/// Goods received at a warehouse against a purchase order.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct GoodsReceipt {
    /// Purchase order delivered.
    pub purchase_order: Link<PurchaseOrder>,
    /// Receiving warehouse.
    pub warehouse: Link<Warehouse>,
    /// When the goods arrived.
    pub received_at: Datetime,
    /// Units refused as damaged.
    pub damaged_units: i64,
}

// ---------------------------------------------------------------- Procurement

/// A company we buy goods or services from.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("vendor"))]
pub struct Supplier {
    /// Supplier name.
    pub name: String,
    /// ISO-3166 alpha-2 country code.
    pub country: String,
    /// Days we have to pay its invoices.
    pub payment_terms_days: i64,
    /// Supplier rating from 1 to 5 from the last evaluation.
    pub rating: Option<i64>,
    /// What it supplies, e.g. 'components' or 'logistics'.
    pub category: String,
}

/// A person at a supplier.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SupplierContact {
    /// Supplier the person works for.
    pub supplier: Link<Supplier>,
    /// Name.
    pub full_name: String,
    /// Email address.
    pub email: String,
}

/// An order we placed with a supplier. Lines: purchase_order->po_line->product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PurchaseOrder {
    /// Supplier ordered from.
    pub supplier: Link<Supplier>,
    /// Purchase order number.
    pub po_number: String,
    /// Approval state of the order.
    pub status: ApprovalStatus,
    /// When it was sent to the supplier.
    pub ordered_at: Datetime,
    /// Expected delivery date.
    pub expected_at: Option<Datetime>,
    /// Employee who raised it.
    pub buyer: Link<Employee>,
}

/// A purchased product (out) on a purchase order (in). Traverse: purchase_order->po_line->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct PoLine {
    pub r#in: Link<PurchaseOrder>,
    pub out: Link<Product>,
    /// Units ordered.
    pub quantity: i64,
    /// Agreed cost per unit in EUR.
    pub unit_cost: Decimal,
}

/// An internal request to buy something, before a purchase order exists.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PurchaseRequisition {
    /// Employee asking.
    pub requested_by: Link<Employee>,
    /// Department that pays.
    pub department: Link<Department>,
    /// What is needed and why.
    pub description: String,
    /// Estimated cost in EUR.
    pub estimated_cost: Decimal,
    /// Approval state.
    pub status: ApprovalStatus,
}

/// An invoice a supplier sent us (accounts payable).
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SupplierInvoice {
    /// Supplier that billed us.
    pub supplier: Link<Supplier>,
    /// Purchase order it bills.
    pub purchase_order: Option<Link<PurchaseOrder>>,
    /// Invoice total in EUR.
    pub amount: Decimal,
    /// Payment due date.
    pub due_at: Datetime,
    /// When we paid it; none while open.
    pub paid_at: Option<Datetime>,
}

/// A periodic rating of a supplier's quality and delivery.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SupplierEvaluation {
    /// Evaluated supplier.
    pub supplier: Link<Supplier>,
    /// Evaluation period, e.g. '2025-H1'.
    pub period: String,
    /// Share of deliveries on time, in percent.
    pub on_time_pct: f64,
    /// Quality score from 1 to 5.
    pub quality_score: i64,
}

/// A supplier (in) that can deliver a product (out). Traverse: supplier->supplies->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Supplies {
    pub r#in: Link<Supplier>,
    pub out: Link<Product>,
    /// Days from order to delivery.
    pub lead_time_days: i64,
    /// Current cost per unit in EUR.
    pub cost: Decimal,
}

/// A request for quotation sent to several suppliers.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("tender", "request for quotation"))]
pub struct Rfq {
    /// What we asked prices for.
    pub title: String,
    /// When the request went out.
    pub issued_at: Datetime,
    /// Deadline for bids.
    pub closes_at: Datetime,
}

/// A supplier (in) bidding on a request for quotation (out). Traverse: supplier->bid_on->rfq.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct BidOn {
    pub r#in: Link<Supplier>,
    pub out: Link<Rfq>,
    /// Bid price in EUR.
    pub price: Decimal,
    /// Whether the bid won.
    pub awarded: bool,
}

// ---------------------------------------------------------------- Human resources

/// A person employed by the company. Manager: employee->reports_to->employee.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("staff member", "colleague"))]
pub struct Employee {
    /// First and last name.
    pub full_name: String,
    /// Company email address.
    pub email: String,
    /// Department the employee belongs to.
    pub department: Link<Department>,
    /// Current position.
    pub job_position: Link<JobPosition>,
    /// Contract type.
    pub employment_type: EmploymentType,
    /// Start date of employment.
    pub hired_at: Datetime,
    /// Last day of employment; none while employed.
    pub terminated_at: Option<Datetime>,
    /// Office the employee works from.
    pub office: Option<Link<Office>>,
}

/// Links an employee (in) to their line manager (out). Traverse: employee->reports_to->employee.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct ReportsTo {
    pub r#in: Link<Employee>,
    pub out: Link<Employee>,
    /// Since when the reporting line holds.
    pub since: Datetime,
}

/// An organisational unit such as Sales, Finance or Engineering.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Department {
    /// Department name.
    pub name: String,
    /// Cost centre its costs are booked to.
    pub cost_center: Link<CostCenter>,
    /// Head of department.
    pub head: Option<Link<Employee>>,
}

/// A role in the organisation with a pay grade.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct JobPosition {
    /// Job title, e.g. 'Senior Accountant'.
    pub title: String,
    /// Pay grade of the role.
    pub grade: Link<PayGrade>,
    /// Department the role sits in.
    pub department: Link<Department>,
}

/// A salary band.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PayGrade {
    /// Grade code, e.g. 'G7'.
    pub code: String,
    /// Lowest yearly base salary in the band, EUR.
    pub min_salary: Decimal,
    /// Highest yearly base salary in the band, EUR.
    pub max_salary: Decimal,
}

/// An employee's base salary from a given date.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Salary {
    /// Paid employee.
    pub employee: Link<Employee>,
    /// Yearly gross base salary in EUR.
    pub amount: Decimal,
    /// Date the salary applies from.
    pub effective_from: Datetime,
}

/// A request for time off.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("holiday", "vacation", "time off"))]
pub struct LeaveRequest {
    /// Employee asking for leave.
    pub employee: Link<Employee>,
    /// Kind of leave.
    pub kind: LeaveKind,
    /// First day off.
    pub starts_on: Datetime,
    /// Last day off.
    pub ends_on: Datetime,
    /// Approval state.
    pub status: ApprovalStatus,
    /// Manager who decided.
    pub approver: Option<Link<Employee>>,
}

/// Remaining leave days of an employee for a year.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct LeaveBalance {
    /// Employee.
    pub employee: Link<Employee>,
    /// Calendar year.
    pub year: i64,
    /// Vacation days left.
    pub days_left: f64,
}

/// Hours an employee worked in a week, possibly per project.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Timesheet {
    /// Who worked.
    pub employee: Link<Employee>,
    /// Monday of the week.
    pub week_start: Datetime,
    /// Hours worked.
    pub hours: f64,
    /// Project the hours are booked to.
    pub project: Option<Link<Project>>,
    /// Whether the manager approved it.
    pub approved: bool,
}

/// A yearly or half-yearly performance review.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("appraisal"))]
pub struct PerformanceReview {
    /// Reviewed employee.
    pub employee: Link<Employee>,
    /// Manager who reviewed.
    pub reviewer: Link<Employee>,
    /// Review period, e.g. '2025'.
    pub period: String,
    /// Overall rating from 1 (poor) to 5 (outstanding).
    pub rating: i64,
    /// Written summary.
    pub summary: String,
}

/// An objective agreed with an employee for the review period.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Goal {
    /// Employee who owns the goal.
    pub employee: Link<Employee>,
    /// What should be achieved.
    pub title: String,
    /// Target date.
    pub due_on: Datetime,
    /// Whether it was met.
    pub achieved: bool,
}

/// A course employees can take.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct TrainingCourse {
    /// Course title.
    pub title: String,
    /// Who runs it.
    pub provider: String,
    /// Length in hours.
    pub hours: f64,
    /// Price per participant in EUR.
    pub cost: Decimal,
}

/// An employee (in) who took a training course (out). Traverse: employee->attended->training_course.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Attended {
    pub r#in: Link<Employee>,
    pub out: Link<TrainingCourse>,
    /// When they completed it; none if still in progress.
    pub completed_at: Option<Datetime>,
    /// Whether they passed the final assessment.
    pub passed: bool,
}

/// A skill or qualification, e.g. 'forklift licence' or 'Rust'.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Skill {
    /// Skill name.
    pub name: String,
    /// Skill family, e.g. 'language' or 'certification'.
    pub category: String,
}

/// An employee (in) holding a skill (out). Traverse: employee->has_skill->skill.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct HasSkill {
    pub r#in: Link<Employee>,
    pub out: Link<Skill>,
    /// Proficiency from 1 to 5.
    pub level: i64,
}

/// A vacancy we are recruiting for.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("vacancy"))]
pub struct JobOpening {
    /// Position to fill.
    pub job_position: Link<JobPosition>,
    /// When the opening was published.
    pub opened_at: Datetime,
    /// When it was filled or withdrawn.
    pub closed_at: Option<Datetime>,
    /// Recruiter in charge.
    pub recruiter: Option<Link<Employee>>,
}

/// A person applying for a job.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("applicant"))]
pub struct Candidate {
    /// Name.
    pub full_name: String,
    /// Email address.
    pub email: String,
    /// How the candidate found us.
    pub source: Channel,
}

/// A candidate (in) applying to a job opening (out). Traverse: candidate->applied_for->job_opening.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct AppliedFor {
    pub r#in: Link<Candidate>,
    pub out: Link<JobOpening>,
    /// When the application came in.
    pub applied_at: Datetime,
    /// Hiring stage: screening, interview, offer, hired or rejected.
    pub stage: String,
}

/// An interview with a candidate.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Interview {
    /// Interviewed candidate.
    pub candidate: Link<Candidate>,
    /// Employee conducting it.
    pub interviewer: Link<Employee>,
    /// When it took place.
    pub held_at: Datetime,
    /// Interviewer's score from 1 to 5.
    pub score: Option<i64>,
}

/// A benefit the company offers, such as a pension plan or a gym subsidy.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Benefit {
    /// Benefit name.
    pub name: String,
    /// Cost to the company per enrolled employee per month, EUR.
    pub monthly_cost: Decimal,
}

/// An employee (in) enrolled in a benefit (out). Traverse: employee->enrolled_in->benefit.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct EnrolledIn {
    pub r#in: Link<Employee>,
    pub out: Link<Benefit>,
    /// Enrolment date.
    pub since: Datetime,
}

/// A company office building.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Office {
    /// Office name, e.g. 'Berlin HQ'.
    pub name: String,
    /// City.
    pub city: String,
    /// ISO-3166 alpha-2 country code.
    pub country: String,
    /// Number of desks.
    pub desks: i64,
}

/// Who to call if something happens to an employee.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct EmergencyContact {
    /// Employee.
    pub employee: Link<Employee>,
    /// Contact's name.
    pub name: String,
    /// Contact's phone number.
    pub phone: String,
}

/// The onboarding checklist of a new hire.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Onboarding {
    /// New hire.
    pub employee: Link<Employee>,
    /// Colleague helping them start.
    pub buddy: Option<Link<Employee>>,
    /// Whether every step is done.
    pub completed: bool,
}

/// The end of an employment.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Termination {
    /// Leaving employee.
    pub employee: Link<Employee>,
    /// Last working day.
    pub last_day: Datetime,
    /// Resignation, dismissal, retirement or end of contract.
    pub reason: String,
    /// Whether the company wanted to keep them.
    pub regretted: bool,
}

// ---------------------------------------------------------------- Payroll

/// One monthly payroll calculation.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct PayrollRun {
    /// Pay month as 'YYYY-MM'.
    pub period: String,
    /// When it was calculated.
    pub run_at: Datetime,
    /// Sum of gross pay in EUR.
    pub total_gross: Decimal,
    /// Who approved the payout.
    pub approved_by: Option<Link<Employee>>,
}

/// An employee's pay for one payroll run.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("pay packet", "pay stub"))]
pub struct Payslip {
    /// Run it belongs to.
    pub payroll_run: Link<PayrollRun>,
    /// Paid employee.
    pub employee: Link<Employee>,
    /// Gross pay in EUR.
    pub gross: Decimal,
    /// Net pay after tax and deductions, EUR.
    #[surqlc(aka("take-home pay"))]
    pub net: Decimal,
    /// Income tax withheld, EUR.
    pub tax: Decimal,
}

/// A one-off bonus paid through payroll.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Bonus {
    /// Receiving employee.
    pub employee: Link<Employee>,
    /// Gross amount in EUR.
    pub amount: Decimal,
    /// Why it was granted.
    pub reason: String,
    /// Run that paid it.
    pub paid_in: Option<Link<PayrollRun>>,
}

/// A recurring deduction from an employee's pay, such as a pension contribution.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Deduction {
    /// Employee.
    pub employee: Link<Employee>,
    /// What is deducted.
    pub kind: String,
    /// Amount per month in EUR.
    pub monthly_amount: Decimal,
}

/// Income tax settings for an employee.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct TaxWithholding {
    /// Employee.
    pub employee: Link<Employee>,
    /// Tax class or code.
    pub tax_class: String,
    /// Withholding rate in percent.
    pub rate_pct: f64,
}

/// Where an employee's pay goes.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct BankDetail {
    /// Employee.
    pub employee: Link<Employee>,
    /// IBAN of the account.
    pub iban: String,
    /// Bank name.
    pub bank_name: String,
}

// ---------------------------------------------------------------- Finance and accounting

/// An account of the general ledger (chart of accounts).
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct GlAccount {
    /// Account number, e.g. '4000'.
    pub number: String,
    /// Account name, e.g. 'Revenue - products'.
    pub name: String,
    /// Balance sheet or income statement class.
    pub account_type: AccountType,
}

/// A booking in the general ledger; its lines debit and credit accounts.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct JournalEntry {
    /// Journal entry number.
    pub entry_number: String,
    /// Posting date.
    pub booked_at: Datetime,
    /// What was booked.
    pub description: String,
    /// Accountant who posted it.
    pub posted_by: Link<Employee>,
}

/// A debit or credit of a journal entry (in) on an account (out). Traverse: journal_entry->journal_line->gl_account.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct JournalLine {
    pub r#in: Link<JournalEntry>,
    pub out: Link<GlAccount>,
    /// Debit amount in EUR.
    pub debit: Decimal,
    /// Credit amount in EUR.
    pub credit: Decimal,
    /// Cost centre charged.
    pub cost_center: Option<Link<CostCenter>>,
}

/// A month of the fiscal year that can be open or closed for posting.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct FiscalPeriod {
    /// Fiscal year.
    pub year: i64,
    /// Month 1 to 12.
    pub month: i64,
    /// Whether postings are locked.
    pub closed: bool,
}

/// A unit that collects costs for management reporting.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct CostCenter {
    /// Cost centre code.
    pub code: String,
    /// Name.
    pub name: String,
    /// Budget owner.
    pub owner: Option<Link<Employee>>,
}

/// Planned spending of a cost centre on an account for a year.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Budget {
    /// Cost centre.
    pub cost_center: Link<CostCenter>,
    /// Account planned.
    pub gl_account: Link<GlAccount>,
    /// Fiscal year.
    pub year: i64,
    /// Planned amount in EUR.
    pub amount: Decimal,
}

/// An invoice we sent to a customer (accounts receivable).
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Invoice {
    /// Invoice number.
    pub invoice_number: String,
    /// Billed customer.
    pub customer: Link<Customer>,
    /// Order it bills.
    pub sales_order: Option<Link<SalesOrder>>,
    /// Invoice total in EUR including tax.
    pub amount: Decimal,
    /// Payment state; 'overdue' is past its due date and unpaid.
    pub status: InvoiceStatus,
    /// Invoice date.
    pub issued_at: Datetime,
    /// Payment due date.
    pub due_at: Datetime,
}

/// Money received from a customer.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Payment {
    /// Paying customer.
    pub customer: Link<Customer>,
    /// Amount received in EUR.
    pub amount: Decimal,
    /// Value date.
    pub received_at: Datetime,
    /// Bank transfer, card or direct debit.
    pub method: String,
}

/// A payment (in) applied to an invoice (out). Traverse: payment->settles->invoice.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Settles {
    pub r#in: Link<Payment>,
    pub out: Link<Invoice>,
    /// Part of the payment applied to this invoice, EUR.
    pub amount: Decimal,
}

/// A correction that reduces what a customer owes.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct CreditNote {
    /// Invoice corrected.
    pub invoice: Link<Invoice>,
    /// Amount credited in EUR.
    pub amount: Decimal,
    /// Why the credit was issued.
    pub reason: String,
}

/// An employee's claim for money spent on company business.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ExpenseClaim {
    /// Claimant.
    pub employee: Link<Employee>,
    /// When it was submitted.
    pub submitted_at: Datetime,
    /// Amount claimed in EUR.
    pub total: Decimal,
    /// Approval state.
    pub status: ApprovalStatus,
    /// Manager who decided.
    pub approver: Option<Link<Employee>>,
}

/// One receipt on an expense claim.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ExpenseItem {
    /// Claim it belongs to.
    pub claim: Link<ExpenseClaim>,
    /// Travel, meals, lodging, equipment or other.
    pub category: String,
    /// Amount in EUR.
    pub amount: Decimal,
    /// Date on the receipt.
    pub spent_on: Datetime,
}

/// A company bank account.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct BankAccount {
    /// Account name.
    pub name: String,
    /// IBAN.
    pub iban: String,
    /// ISO-4217 currency.
    pub currency: String,
    /// Current booked balance.
    pub balance: Decimal,
}

/// A line on a company bank statement.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct BankTransaction {
    /// Account the line is on.
    pub bank_account: Link<BankAccount>,
    /// Amount; negative for outgoing money.
    pub amount: Decimal,
    /// Booking date.
    pub booked_at: Datetime,
    /// Name of the other party.
    pub counterparty: String,
    /// Whether it is matched to a ledger entry.
    pub reconciled: bool,
}

/// A currency we trade in.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Currency {
    /// ISO-4217 code.
    pub code: String,
    /// Currency name.
    pub name: String,
}

/// The rate of a currency against EUR on a day.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ExchangeRate {
    /// Foreign currency.
    pub currency: Link<Currency>,
    /// Units of the currency per EUR.
    pub rate: f64,
    /// Day the rate applies to.
    pub on_day: Datetime,
}

/// A sales tax (VAT) rate of a country.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("VAT"))]
pub struct TaxRate {
    /// ISO-3166 alpha-2 country code.
    pub country: String,
    /// Rate in percent.
    pub rate_pct: f64,
    /// E.g. 'standard' or 'reduced'.
    pub name: String,
}

/// A capitalised asset that is depreciated over time.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct FixedAsset {
    /// Asset description.
    pub name: String,
    /// Acquisition date.
    pub acquired_at: Datetime,
    /// Acquisition cost in EUR.
    pub cost: Decimal,
    /// Depreciation period in years.
    pub useful_life_years: i64,
    /// Cost centre owning it.
    pub cost_center: Option<Link<CostCenter>>,
}

/// A depreciation booking of a fixed asset for a period.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("write-down"))]
pub struct Depreciation {
    /// Depreciated asset.
    pub asset: Link<FixedAsset>,
    /// Month as 'YYYY-MM'.
    pub period: String,
    /// Depreciation amount in EUR.
    pub amount: Decimal,
}

/// Money the company borrowed.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("borrowing"))]
pub struct Loan {
    /// Bank or lender.
    pub lender: String,
    /// Amount borrowed in EUR.
    pub principal: Decimal,
    /// Yearly interest rate in percent.
    pub interest_pct: f64,
    /// Repayment date.
    pub matures_at: Datetime,
}

/// An issue raised by internal or external auditors.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct AuditFinding {
    /// Short description.
    pub title: String,
    /// How serious it is.
    pub severity: TicketPriority,
    /// When it was raised.
    pub raised_at: Datetime,
    /// Who must fix it.
    pub owner: Option<Link<Employee>>,
    /// Whether it is closed.
    pub resolved: bool,
}

// ---------------------------------------------------------------- Customer support

/// A customer's request or problem handled by support. Comments: support_ticket->has_comment->ticket_comment.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("help request", "case"))]
pub struct SupportTicket {
    /// One-line summary.
    pub subject: String,
    /// Customer who raised it.
    pub customer: Link<Customer>,
    /// Product concerned, if any.
    pub product: Option<Link<Product>>,
    /// Urgency.
    pub priority: TicketPriority,
    /// Handling state.
    pub status: TicketStatus,
    /// How it reached us.
    pub channel: Channel,
    /// When it was opened.
    pub opened_at: Datetime,
    /// When it was resolved.
    pub resolved_at: Option<Datetime>,
    /// Support agent working it.
    pub assignee: Option<Link<Employee>>,
    /// Service-level policy that applies.
    pub sla: Option<Link<SlaPolicy>>,
}

/// A message on a support ticket, from the customer or an agent.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct TicketComment {
    /// Message text.
    pub body: String,
    /// When it was written.
    pub written_at: Datetime,
    /// Whether only staff can see it.
    pub internal: bool,
    /// Agent who wrote it; none when the customer did.
    pub author: Option<Link<Employee>>,
}

/// A ticket (in) and one of its comments (out). Traverse: support_ticket->has_comment->ticket_comment.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct HasComment {
    pub r#in: Link<SupportTicket>,
    pub out: Link<TicketComment>,
}

/// Response and resolution times promised to customers.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SlaPolicy {
    /// Policy name, e.g. 'Premium 24/7'.
    pub name: String,
    /// Hours to the first response.
    pub first_response_hours: i64,
    /// Hours to resolution.
    pub resolution_hours: i64,
}

/// A ticket that missed its service-level target.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SlaBreach {
    /// Late ticket.
    pub ticket: Link<SupportTicket>,
    /// 'response' or 'resolution'.
    pub kind: String,
    /// How late, in hours.
    pub late_by_hours: f64,
}

/// A help-centre article.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct KnowledgeArticle {
    /// Article title.
    pub title: String,
    /// Article text.
    pub body: String,
    /// Product it documents.
    pub product: Option<Link<Product>>,
    /// Page views.
    pub views: i64,
    /// Writer.
    pub author: Link<Employee>,
}

/// A satisfaction survey answered after a ticket was resolved.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct CustomerSurvey {
    /// Ticket it rates.
    pub ticket: Link<SupportTicket>,
    /// Satisfaction from 1 to 5.
    pub csat: i64,
    /// Likelihood to recommend from 0 to 10.
    pub nps: Option<i64>,
    /// Free-text feedback.
    pub comment: Option<String>,
}

/// A team of support agents, e.g. 'Tier 2' or 'Billing'.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SupportTeam {
    /// Team name.
    pub name: String,
    /// Team lead.
    pub lead: Option<Link<Employee>>,
}

/// An employee (in) who is a member of a support team (out). Traverse: employee->member_of->support_team.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct MemberOf {
    pub r#in: Link<Employee>,
    pub out: Link<SupportTeam>,
    /// Joined the team on.
    pub since: Datetime,
}

/// A ticket handed to a higher tier or to engineering.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Escalation {
    /// Escalated ticket.
    pub ticket: Link<SupportTicket>,
    /// Team it went to.
    pub to_team: Link<SupportTeam>,
    /// When.
    pub escalated_at: Datetime,
    /// Why.
    pub reason: String,
}

/// A customer's request to return a delivered product (RMA).
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ReturnRequest {
    /// Order the product came with.
    pub sales_order: Link<SalesOrder>,
    /// Product returned.
    pub product: Link<Product>,
    /// Units returned.
    pub quantity: i64,
    /// Why it is returned.
    pub reason: String,
    /// Whether the return was accepted.
    pub approved: bool,
    /// Refund in EUR.
    pub refund: Decimal,
}

/// A formal complaint from a customer.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("grievance"))]
pub struct Complaint {
    /// Complaining customer.
    pub customer: Link<Customer>,
    /// What it is about.
    pub subject: String,
    /// When it was received.
    pub received_at: Datetime,
    /// How serious it is.
    pub severity: TicketPriority,
}

// ---------------------------------------------------------------- Logistics

/// A transport company that moves our shipments.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("courier"))]
pub struct Carrier {
    /// Carrier name, e.g. 'DHL Freight'.
    pub name: String,
    /// Road, rail, sea, air or parcel.
    pub mode: String,
    /// Our rating from 1 to 5.
    pub rating: Option<i64>,
}

/// A consignment of goods sent to a customer or between warehouses.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Shipment {
    /// Carrier's tracking number.
    pub tracking_number: String,
    /// Order shipped, if any.
    pub sales_order: Option<Link<SalesOrder>>,
    /// Carrier moving it.
    pub carrier: Link<Carrier>,
    /// Warehouse it leaves from.
    pub from_warehouse: Link<Warehouse>,
    /// Transport state.
    pub status: ShipmentStatus,
    /// When it left.
    pub shipped_at: Option<Datetime>,
    /// When it arrived.
    pub delivered_at: Option<Datetime>,
    /// Gross weight.
    pub weight_kg: f64,
    /// What the carrier charges, EUR.
    pub freight_cost: Decimal,
}

/// One parcel or pallet of a shipment.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Package {
    /// Shipment it belongs to.
    pub shipment: Link<Shipment>,
    /// Weight.
    pub weight_kg: f64,
    /// L x W x H in cm.
    pub dimensions: String,
}

/// An address we deliver to.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct DeliveryAddress {
    /// Customer at the address.
    pub customer: Link<Customer>,
    /// Street and number.
    pub street: String,
    /// City.
    pub city: String,
    /// Postal code.
    pub postal_code: String,
    /// ISO-3166 alpha-2 country code.
    pub country: String,
}

/// A shipment (in) going to an address (out). Traverse: shipment->shipped_to->delivery_address.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct ShippedTo {
    pub r#in: Link<Shipment>,
    pub out: Link<DeliveryAddress>,
}

/// A recurring delivery route of our own fleet.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Route {
    /// Route name.
    pub name: String,
    /// Depot the route starts from.
    pub origin: Link<Warehouse>,
    /// Number of stops.
    pub stops: i64,
    /// Length in kilometres.
    pub distance_km: f64,
}

/// A truck or van of our own fleet.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("truck", "van"))]
pub struct Vehicle {
    /// Licence plate.
    pub plate: String,
    /// Van, truck or trailer.
    pub kind: String,
    /// Payload.
    pub capacity_kg: f64,
    /// Home depot.
    pub depot: Link<Warehouse>,
}

/// A driver of our fleet.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Driver {
    /// The driver's employee record.
    pub employee: Link<Employee>,
    /// Driving licence class.
    pub licence_class: String,
    /// Licence expiry date.
    pub licence_expires: Datetime,
}

/// One run of a vehicle on a route on a day.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Trip {
    /// Route driven.
    pub route: Link<Route>,
    /// Vehicle used.
    pub vehicle: Link<Vehicle>,
    /// Driver.
    pub driver: Link<Driver>,
    /// Departure.
    pub departed_at: Datetime,
    /// Return to depot.
    pub returned_at: Option<Datetime>,
}

/// A trip (in) carrying a shipment (out). Traverse: trip->carries->shipment.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Carries {
    pub r#in: Link<Trip>,
    pub out: Link<Shipment>,
}

/// A refuelling of a fleet vehicle.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct FuelLog {
    /// Refuelled vehicle.
    pub vehicle: Link<Vehicle>,
    /// Litres.
    pub litres: f64,
    /// Cost in EUR.
    pub cost: Decimal,
    /// When.
    pub filled_at: Datetime,
}

/// A service or repair of a fleet vehicle.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct VehicleMaintenance {
    /// Serviced vehicle.
    pub vehicle: Link<Vehicle>,
    /// When.
    pub serviced_at: Datetime,
    /// Cost in EUR.
    pub cost: Decimal,
    /// What was done.
    pub description: String,
}

/// An export or import declaration for a cross-border shipment.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct CustomsDeclaration {
    /// Declared shipment.
    pub shipment: Link<Shipment>,
    /// Harmonised System tariff code.
    pub hs_code: String,
    /// Customs value in EUR.
    pub declared_value: Decimal,
    /// Duty paid in EUR.
    pub duty: Decimal,
}

/// A carrier's price to move goods on a lane.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct FreightRate {
    /// Carrier.
    pub carrier: Link<Carrier>,
    /// From, ISO-3166 alpha-2.
    pub origin_country: String,
    /// To, ISO-3166 alpha-2.
    pub destination_country: String,
    /// Price per kilogram in EUR.
    pub price_per_kg: Decimal,
}

/// A problem during delivery: damage, delay or failed attempt.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct DeliveryException {
    /// Affected shipment.
    pub shipment: Link<Shipment>,
    /// Damage, delay, lost or refused.
    pub kind: String,
    /// When it was reported.
    pub reported_at: Datetime,
    /// What happened.
    pub description: String,
}

// ---------------------------------------------------------------- Marketing

/// A marketing campaign with a budget and a goal.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Campaign {
    /// Campaign name.
    pub name: String,
    /// Main channel.
    pub channel: Channel,
    /// Start.
    pub starts_at: Datetime,
    /// End.
    pub ends_at: Datetime,
    /// Planned spend in EUR.
    pub budget: Decimal,
    /// Marketer in charge.
    pub owner: Link<Employee>,
}

/// A campaign (in) aimed at an audience segment (out). Traverse: campaign->targets->audience_segment.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Targets {
    pub r#in: Link<Campaign>,
    pub out: Link<AudienceSegment>,
}

/// A group of customers or prospects defined for marketing.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct AudienceSegment {
    /// Segment name.
    pub name: String,
    /// How members are selected.
    pub rule: String,
    /// Current number of members.
    pub size: i64,
}

/// A campaign (in) that generated a lead (out). Traverse: campaign->generated->lead.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Generated {
    pub r#in: Link<Campaign>,
    pub out: Link<Lead>,
    /// Attributed cost per lead, EUR.
    pub cost: Decimal,
}

/// One marketing email sent to a contact.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct EmailSend {
    /// Campaign it belongs to.
    pub campaign: Link<Campaign>,
    /// Recipient.
    pub contact: Link<Contact>,
    /// When it was sent.
    pub sent_at: Datetime,
    /// Whether it was opened.
    pub opened: bool,
    /// Whether a link was clicked.
    pub clicked: bool,
}

/// A trade fair, webinar or conference we attend or host.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct MarketingEvent {
    /// Event name.
    pub name: String,
    /// Date.
    pub held_at: Datetime,
    /// City; none for online events.
    pub city: Option<String>,
    /// Our cost in EUR.
    pub cost: Decimal,
}

/// A contact (in) registered for an event (out). Traverse: contact->registered_for->marketing_event.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct RegisteredFor {
    pub r#in: Link<Contact>,
    pub out: Link<MarketingEvent>,
    /// Whether they showed up.
    pub attended: bool,
}

/// Daily advertising spend of a campaign on a platform.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct AdSpend {
    /// Campaign.
    pub campaign: Link<Campaign>,
    /// Ad platform.
    pub platform: String,
    /// Day.
    pub spent_on: Datetime,
    /// Spend in EUR.
    pub amount: Decimal,
    /// Clicks received.
    pub clicks: i64,
}

/// A visit to our website, tied to a lead when known.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct WebVisit {
    /// Visitor, if identified.
    pub lead: Option<Link<Lead>>,
    /// Landing page path.
    pub page: String,
    /// When.
    pub visited_at: Datetime,
    /// Campaign in the tracking link.
    pub utm_campaign: Option<Link<Campaign>>,
}

/// A coupon code handed out by a campaign.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("discount code", "voucher"))]
pub struct Coupon {
    /// Campaign that issued it.
    pub campaign: Link<Campaign>,
    /// The code.
    pub code: String,
    /// Times it was used.
    pub redemptions: i64,
}

// ---------------------------------------------------------------- Manufacturing

/// An order to produce a quantity of a product on the shop floor.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct WorkOrder {
    /// Product made.
    pub product: Link<Product>,
    /// Units to produce.
    pub quantity: i64,
    /// Due date.
    pub due_at: Datetime,
    /// Production state.
    pub status: ProjectStatus,
    /// Where it is produced.
    pub work_center: Link<WorkCenter>,
}

/// The parts list of a manufactured product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct BillOfMaterials {
    /// Assembled product.
    pub product: Link<Product>,
    /// BOM revision.
    pub version: String,
}

/// A component product (out) in a bill of materials (in). Traverse: bill_of_materials->bom_component->product.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct BomComponent {
    pub r#in: Link<BillOfMaterials>,
    pub out: Link<Product>,
    /// Units of the component per assembled unit.
    pub quantity: f64,
}

/// A production line or machine group.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct WorkCenter {
    /// Work centre name.
    pub name: String,
    /// Cost per machine hour in EUR.
    pub hourly_rate: Decimal,
    /// Available hours per week.
    pub capacity_hours: f64,
}

/// A machine on the shop floor.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Machine {
    /// Where it stands.
    pub work_center: Link<WorkCenter>,
    /// Machine model.
    pub model: String,
    /// Installation date.
    pub installed_at: Datetime,
}

/// A period when a machine could not run.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct MachineDowntime {
    /// Stopped machine.
    pub machine: Link<Machine>,
    /// Start of the stop.
    pub started_at: Datetime,
    /// End of the stop.
    pub ended_at: Option<Datetime>,
    /// Breakdown, changeover, maintenance or no material.
    pub cause: String,
}

/// A quality check of produced or received goods.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct QualityInspection {
    /// Production checked.
    pub work_order: Option<Link<WorkOrder>>,
    /// Batch checked.
    pub lot: Option<Link<Lot>>,
    /// Inspector.
    pub inspector: Link<Employee>,
    /// Whether it passed.
    pub passed: bool,
    /// Defects found.
    pub defects: i64,
}

/// Material scrapped in production.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ScrapRecord {
    /// Order that scrapped it.
    pub work_order: Link<WorkOrder>,
    /// Scrapped material.
    pub product: Link<Product>,
    /// Units scrapped.
    pub quantity: i64,
    /// Why.
    pub reason: String,
}

/// A shift worked at a work centre.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProductionShift {
    /// Where.
    pub work_center: Link<WorkCenter>,
    /// Start.
    pub starts_at: Datetime,
    /// Shift supervisor.
    pub supervisor: Link<Employee>,
    /// Units produced in the shift.
    pub output_units: i64,
}

// ---------------------------------------------------------------- IT and facilities

/// A laptop, phone, monitor or licence handed out to employees.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ItAsset {
    /// Asset tag.
    pub tag: String,
    /// Laptop, phone, monitor or licence.
    pub kind: String,
    /// Where the asset is in its life.
    pub state: AssetState,
    /// Current holder.
    pub assigned_to: Option<Link<Employee>>,
    /// Purchase date.
    pub purchased_at: Datetime,
    /// Purchase cost in EUR.
    pub cost: Decimal,
}

/// A licence for a software product.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct SoftwareLicense {
    /// Software name.
    pub product_name: String,
    /// Licensed seats.
    pub seats: i64,
    /// Cost per year in EUR.
    pub annual_cost: Decimal,
    /// Renewal date.
    pub renews_at: Datetime,
}

/// A software licence (in) assigned to an employee (out). Traverse: software_license->licensed_to->employee.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct LicensedTo {
    pub r#in: Link<SoftwareLicense>,
    pub out: Link<Employee>,
}

/// An internal IT help-desk request.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ItTicket {
    /// Employee asking for help.
    pub requester: Link<Employee>,
    /// Summary.
    pub subject: String,
    /// Urgency.
    pub priority: TicketPriority,
    /// State.
    pub status: TicketStatus,
    /// Asset concerned.
    pub asset: Option<Link<ItAsset>>,
}

/// A bookable room in an office.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct MeetingRoom {
    /// Office.
    pub office: Link<Office>,
    /// Room name.
    pub name: String,
    /// Seats.
    pub seats: i64,
}

/// A booking of a meeting room.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct RoomBooking {
    /// Booked room.
    pub room: Link<MeetingRoom>,
    /// Who booked.
    pub booked_by: Link<Employee>,
    /// Start.
    pub starts_at: Datetime,
    /// End.
    pub ends_at: Datetime,
}

/// A rental contract for an office or warehouse.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("rent agreement"))]
pub struct Lease {
    /// Leased office.
    pub office: Option<Link<Office>>,
    /// Leased warehouse.
    pub warehouse: Option<Link<Warehouse>>,
    /// Rent per month in EUR.
    pub monthly_rent: Decimal,
    /// End of the lease.
    pub ends_at: Datetime,
}

/// An information security incident.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("breach"))]
pub struct SecurityIncident {
    /// What happened.
    pub title: String,
    /// Severity.
    pub severity: TicketPriority,
    /// When it was detected.
    pub detected_at: Datetime,
    /// Affected device.
    pub affected_asset: Option<Link<ItAsset>>,
    /// Whether it is closed.
    pub resolved: bool,
}

// ---------------------------------------------------------------- Projects

/// An internal or customer project with a budget and a manager.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Project {
    /// Project name.
    pub name: String,
    /// Customer paying for it; none for internal projects.
    pub customer: Option<Link<Customer>>,
    /// Project manager.
    pub manager: Link<Employee>,
    /// State.
    pub status: ProjectStatus,
    /// Budget in EUR.
    pub budget: Decimal,
    /// Start.
    pub starts_at: Datetime,
    /// Planned end.
    pub ends_at: Option<Datetime>,
}

/// A dated deliverable of a project.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Milestone {
    /// Project.
    pub project: Link<Project>,
    /// Deliverable.
    pub title: String,
    /// Due date.
    pub due_at: Datetime,
    /// Whether it was delivered.
    pub reached: bool,
}

/// A task in a project.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProjectTask {
    /// Project.
    pub project: Link<Project>,
    /// What to do.
    pub title: String,
    /// Who does it.
    pub assignee: Option<Link<Employee>>,
    /// Estimated effort.
    pub estimate_hours: f64,
    /// Whether it is finished.
    pub done: bool,
}

/// An employee (in) staffed on a project (out). Traverse: employee->works_on->project.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct WorksOn {
    pub r#in: Link<Employee>,
    pub out: Link<Project>,
    /// Role on the project.
    pub role: String,
    /// Share of their time, in percent.
    pub allocation_pct: i64,
}

/// A risk recorded for a project.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ProjectRisk {
    /// Project.
    pub project: Link<Project>,
    /// The risk.
    pub description: String,
    /// Likelihood from 0 to 1.
    pub probability: f64,
    /// Impact from 1 to 5.
    pub impact: i64,
}

/// A change to a project's scope, schedule or budget.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct ChangeRequest {
    /// Project.
    pub project: Link<Project>,
    /// What changes.
    pub description: String,
    /// Budget change in EUR.
    pub cost_impact: Decimal,
    /// Approval state.
    pub status: ApprovalStatus,
}

// ---------------------------------------------------------------- Legal and compliance

/// A dispute or lawsuit the company is party to.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
#[surqlc(aka("lawsuit"))]
pub struct LegalCase {
    /// Case name.
    pub title: String,
    /// Other party.
    pub counterparty: String,
    /// When it started.
    pub opened_at: Datetime,
    /// Estimated financial exposure in EUR.
    pub exposure: Decimal,
    /// In-house lawyer.
    pub counsel: Option<Link<Employee>>,
}

/// An internal policy document employees must follow.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Policy {
    /// Policy title.
    pub title: String,
    /// Version.
    pub version: String,
    /// Effective date.
    pub effective_from: Datetime,
    /// Policy owner.
    pub owner: Link<Employee>,
}

/// An employee (in) who acknowledged a policy (out). Traverse: employee->acknowledged->policy.
#[derive(Debug, Clone, Serialize, Deserialize, Relation)]
pub struct Acknowledged {
    pub r#in: Link<Employee>,
    pub out: Link<Policy>,
    /// When.
    pub at: Datetime,
}

/// A customer's data protection request (access or deletion, GDPR).
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct DataRequest {
    /// Requesting customer.
    pub customer: Link<Customer>,
    /// 'access', 'deletion' or 'correction'.
    pub kind: String,
    /// When it was received.
    pub received_at: Datetime,
    /// When it was answered.
    pub completed_at: Option<Datetime>,
}

/// A certification the company holds, such as ISO 9001.
#[derive(Debug, Clone, Serialize, Deserialize, Table)]
pub struct Certification {
    /// Certificate name.
    pub name: String,
    /// Certification body.
    pub issuer: String,
    /// Expiry date.
    pub expires_at: Datetime,
}
