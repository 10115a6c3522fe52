//! The keyword table itself, and the questions it answers from a name:
//! which slot a keyword's value is, what kind of keyword it is, what shape its
//! value must have. It knows no document, so the document model below every
//! other layer interns object keys against it (`doc::Key`): a key that names a
//! keyword is stored as its row.

/// Where a keyword's value holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The value is one subschema (`not`, `items`, `additionalProperties`).
    Schema,
    /// The value is an array of subschemas (`anyOf`, `prefixItems`).
    SchemaArray,
    /// The value is a map from names to subschemas (`properties`, `$defs`).
    SchemaMap,
    /// The value is plain data (`enum`, `default`, `required`, unknown keys).
    Data,
}

/// What a keyword is for; drives stripping and spilling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Identifiers and references: `$id`, `$ref`, `$defs`, `$anchor`.
    Core,
    /// Dialect and comments: `$schema`, `$comment`, `$vocabulary`.
    Meta,
    /// Applies subschemas: combinators, `properties`, `items`, conditionals.
    Applicator,
    /// Asserts on the instance: `type`, `enum`, bounds, `pattern`, `required`.
    Validation,
    /// Describes only: `title`, `description`, `default`, `examples`.
    Annotation,
    /// Non-standard but widely emitted: `nullable`, `propertyOrdering`, `example`.
    Extension,
}

/// The instance type a keyword constrains, for type-specific pruning
/// (a `minLength` means nothing on a number branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Any,
    String,
    Number,
    Array,
    Object,
}

/// The JSON shape a keyword's value must have (the 2020-12 meta-schema's
/// structural rules that matter for tool schemas). The checker holds outputs to
/// it (`invalid-schema`) and the draft upgrade repairs or drops plain-data
/// values that miss it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Not checked.
    Any,
    /// A type name or a non-empty array of distinct type names (`type`).
    TypeNames,
    /// An array (`enum`, `examples`).
    Array,
    /// An array of distinct strings (`required`).
    DistinctStrings,
    /// An array of strings (`propertyOrdering`).
    Strings,
    /// An object whose values are schemas (`properties`, `$defs`).
    SchemaMap,
    /// A non-empty array of schemas (`anyOf`, `prefixItems`).
    SchemaArray,
    /// A schema: an object or a boolean (`items`, `not`).
    Schema,
    /// A non-negative integer (`minLength`, `maxItems`).
    Count,
    /// A number (`minimum`).
    Number,
    /// A number above 0 (`multipleOf`).
    Positive,
    /// A string (`pattern`, `$ref`).
    String,
    /// A boolean (`uniqueItems`, `nullable`).
    Boolean,
}

impl Shape {
    /// What a value of this shape is, for the checker's message.
    pub fn what(self) -> &'static str {
        match self {
            Shape::Any => "",
            Shape::TypeNames => "a type name or a non-empty array of distinct type names",
            Shape::Array => "an array",
            Shape::DistinctStrings => "an array of distinct strings",
            Shape::Strings => "an array of strings",
            Shape::SchemaMap => "an object of schemas",
            Shape::SchemaArray => "a non-empty array of schemas",
            Shape::Schema => "a schema",
            Shape::Count => "a non-negative integer",
            Shape::Number => "a number",
            Shape::Positive => "a number above 0",
            Shape::String => "a string",
            Shape::Boolean => "a boolean",
        }
    }
}

/// Which end of a range a bound keyword holds: the conjunction of two lower
/// bounds is the larger, of two upper bounds the smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

pub struct Keyword {
    pub name: &'static str,
    /// The name as it starts an object member in JSON, `"name":`: the writer
    /// copies it whole.
    pub member: &'static str,
    /// Its position in `KEYWORDS`: its bit in a `Names` set.
    pub row: u8,
    pub slot: Slot,
    pub kind: Kind,
    pub applies: Applies,
    /// Human-meaningful when stripped: its value is worth keeping in the description.
    pub spill: bool,
    /// The JSON shape its value must have.
    pub shape: Shape,
    /// Only annotates: it never changes what validates, so where two schemas
    /// meet, either side's value may stand, and a split by type keeps it on the
    /// wrapper. Wider than `Kind::Annotation` by `example` and `$comment`;
    /// narrower by the content keywords, which 2020-12 calls annotations but
    /// which describe strings only: split by type, they go with the string
    /// branch (on the corpus, marking them moves gen-pathological/25's
    /// `contentMediaType` spill from its string branch to the wrapper).
    pub annotation: bool,
    /// Its subschemas apply to a member, item or name of the instance rather
    /// than the instance itself: a `$ref` cycle through it is recursion over
    /// ever smaller values, not a definition that only repeats itself.
    pub consumes: bool,
    /// Only serves `$ref` resolution; gone once references are inlined.
    pub resolution: bool,
    /// Part of the structure every target needs: `stripKeywords` cannot name it
    /// (the rules that write it, an object root's `type`, would fight the strip).
    pub structural: bool,
    /// A standalone lower or upper bound. (`minContains`/`maxContains` count
    /// `contains` matches: they bound only together with it.)
    pub bound: Option<Bound>,
    /// Refused by OpenAI's first strict release, accepted by strict mode
    /// today: what `stripStrictConstraints` strips (seed 003 §1.1,
    /// providers.md §2).
    pub strict_constraint: bool,
}

/// A row of the table: `kw` with the member text made from the name.
macro_rules! keyword {
    ($name:literal, $($rest:expr),* $(,)?) => {
        kw($name, concat!("\"", $name, "\":"), $($rest),*)
    };
}

const fn kw(name: &'static str, member: &'static str, slot: Slot, kind: Kind, applies: Applies, spill: bool) -> Keyword {
    Keyword {
        name,
        member,
        slot,
        kind,
        applies,
        spill,
        shape: Shape::Any,
        annotation: false,
        consumes: false,
        resolution: false,
        structural: false,
        bound: None,
        strict_constraint: false,
        row: 0,
    }
}

/// The table's columns past the first five, set row by row.
impl Keyword {
    const fn shape(self, shape: Shape) -> Self {
        Keyword { shape, ..self }
    }
    const fn annotation(self) -> Self {
        Keyword { annotation: true, ..self }
    }
    const fn consumes(self) -> Self {
        Keyword { consumes: true, ..self }
    }
    const fn resolution(self) -> Self {
        Keyword { resolution: true, ..self }
    }
    const fn structural(self) -> Self {
        Keyword { structural: true, ..self }
    }
    const fn lower(self) -> Self {
        Keyword { bound: Some(Bound::Lower), ..self }
    }
    const fn upper(self) -> Self {
        Keyword { bound: Some(Bound::Upper), ..self }
    }
    const fn strict_constraint(self) -> Self {
        Keyword { strict_constraint: true, ..self }
    }
}

use Applies as A;
use Kind as K;
use Shape as Sh;
use Slot as S;

/// Draft 2020-12, legacy and extension keywords this library understands.
/// Ordered by how often keywords occur in real tool schemas, so the linear
/// lookup in `get` usually ends within the first few entries (the structural
/// ones in the order the `stripKeywords` error names them).
pub static KEYWORDS: &[Keyword] = &TABLE;

const TABLE: [Keyword; 63] = numbered([
    keyword!("type", S::Data, K::Validation, A::Any, false).shape(Sh::TypeNames).structural(),
    keyword!("properties", S::SchemaMap, K::Applicator, A::Object, false).shape(Sh::SchemaMap).consumes().structural(),
    keyword!("description", S::Data, K::Annotation, A::Any, false).shape(Sh::String).annotation(),
    keyword!("items", S::Schema, K::Applicator, A::Array, false).shape(Sh::Schema).consumes().structural(),
    keyword!("required", S::Data, K::Validation, A::Object, false).shape(Sh::DistinctStrings).structural(),
    keyword!("enum", S::Data, K::Validation, A::Any, false).shape(Sh::Array),
    keyword!("title", S::Data, K::Annotation, A::Any, false).shape(Sh::String).annotation(),
    keyword!("default", S::Data, K::Annotation, A::Any, true).annotation(),
    keyword!("anyOf", S::SchemaArray, K::Applicator, A::Any, false).shape(Sh::SchemaArray).structural(),
    keyword!("$ref", S::Data, K::Core, A::Any, false).shape(Sh::String).structural(),
    keyword!("format", S::Data, K::Validation, A::String, true).shape(Sh::String).strict_constraint(),
    keyword!("minimum", S::Data, K::Validation, A::Number, true).shape(Sh::Number).lower().strict_constraint(),
    keyword!("maximum", S::Data, K::Validation, A::Number, true).shape(Sh::Number).upper().strict_constraint(),
    keyword!("const", S::Data, K::Validation, A::Any, true),
    keyword!("pattern", S::Data, K::Validation, A::String, true).shape(Sh::String).strict_constraint(),
    keyword!("oneOf", S::SchemaArray, K::Applicator, A::Any, false).shape(Sh::SchemaArray),
    keyword!("$defs", S::SchemaMap, K::Core, A::Any, false).shape(Sh::SchemaMap).resolution().structural(),
    keyword!("additionalProperties", S::Schema, K::Applicator, A::Object, false).shape(Sh::Schema).consumes().structural(),
    keyword!("$schema", S::Data, K::Meta, A::Any, false).shape(Sh::String),
    keyword!("minLength", S::Data, K::Validation, A::String, true).shape(Sh::Count).lower(),
    keyword!("maxLength", S::Data, K::Validation, A::String, true).shape(Sh::Count).upper(),
    keyword!("minItems", S::Data, K::Validation, A::Array, true).shape(Sh::Count).lower().strict_constraint(),
    keyword!("maxItems", S::Data, K::Validation, A::Array, true).shape(Sh::Count).upper().strict_constraint(),
    keyword!("allOf", S::SchemaArray, K::Applicator, A::Any, false).shape(Sh::SchemaArray),
    keyword!("nullable", S::Data, K::Extension, A::Any, false).shape(Sh::Boolean),
    keyword!("not", S::Schema, K::Applicator, A::Any, false).shape(Sh::Schema),
    keyword!("examples", S::Data, K::Annotation, A::Any, true).shape(Sh::Array).annotation(),
    keyword!("propertyNames", S::Schema, K::Applicator, A::Object, false).shape(Sh::Schema),
    keyword!("definitions", S::SchemaMap, K::Core, A::Any, false).resolution(),
    keyword!("exclusiveMinimum", S::Data, K::Validation, A::Number, true).shape(Sh::Number).lower().strict_constraint(),
    keyword!("exclusiveMaximum", S::Data, K::Validation, A::Number, true).shape(Sh::Number).upper().strict_constraint(),
    keyword!("uniqueItems", S::Data, K::Validation, A::Array, true).shape(Sh::Boolean),
    keyword!("multipleOf", S::Data, K::Validation, A::Number, true).shape(Sh::Positive).strict_constraint(),
    keyword!("prefixItems", S::SchemaArray, K::Applicator, A::Array, false).shape(Sh::SchemaArray).consumes(),
    keyword!("patternProperties", S::SchemaMap, K::Applicator, A::Object, false).shape(Sh::SchemaMap).consumes(),
    keyword!("deprecated", S::Data, K::Annotation, A::Any, false).shape(Sh::Boolean).annotation(),
    keyword!("readOnly", S::Data, K::Annotation, A::Any, false).shape(Sh::Boolean).annotation(),
    keyword!("writeOnly", S::Data, K::Annotation, A::Any, false).shape(Sh::Boolean).annotation(),
    keyword!("$id", S::Data, K::Core, A::Any, false).shape(Sh::String).resolution(),
    keyword!("$comment", S::Data, K::Meta, A::Any, false).shape(Sh::String).annotation(),
    keyword!("$anchor", S::Data, K::Core, A::Any, false).shape(Sh::String).resolution(),
    keyword!("$dynamicAnchor", S::Data, K::Core, A::Any, false).resolution(),
    keyword!("$dynamicRef", S::Data, K::Core, A::Any, false),
    keyword!("$vocabulary", S::Data, K::Meta, A::Any, false),
    keyword!("if", S::Schema, K::Applicator, A::Any, false).shape(Sh::Schema),
    keyword!("then", S::Schema, K::Applicator, A::Any, false).shape(Sh::Schema),
    keyword!("else", S::Schema, K::Applicator, A::Any, false).shape(Sh::Schema),
    keyword!("dependentSchemas", S::SchemaMap, K::Applicator, A::Object, false).shape(Sh::SchemaMap).consumes(),
    keyword!("contains", S::Schema, K::Applicator, A::Array, false).shape(Sh::Schema).consumes(),
    keyword!("unevaluatedItems", S::Schema, K::Applicator, A::Array, false),
    keyword!("unevaluatedProperties", S::Schema, K::Applicator, A::Object, false),
    keyword!("maxContains", S::Data, K::Validation, A::Array, false).shape(Sh::Count),
    keyword!("minContains", S::Data, K::Validation, A::Array, false).shape(Sh::Count),
    keyword!("maxProperties", S::Data, K::Validation, A::Object, true).shape(Sh::Count).upper(),
    keyword!("minProperties", S::Data, K::Validation, A::Object, true).shape(Sh::Count).lower(),
    keyword!("dependentRequired", S::Data, K::Validation, A::Object, false),
    keyword!("contentEncoding", S::Data, K::Annotation, A::String, true),
    keyword!("contentMediaType", S::Data, K::Annotation, A::String, true),
    keyword!("contentSchema", S::Schema, K::Annotation, A::String, false),
    keyword!("propertyOrdering", S::Data, K::Extension, A::Object, false).shape(Sh::Strings),
    keyword!("example", S::Data, K::Extension, A::Any, true).annotation(),
    keyword!("additionalItems", S::Schema, K::Applicator, A::Array, false),
    keyword!("dependencies", S::SchemaMap, K::Applicator, A::Object, false),
]);

/// The table with each row's `row` set to its position.
const fn numbered(mut rows: [Keyword; 63]) -> [Keyword; 63] {
    let mut i = 0;
    while i < rows.len() {
        rows[i].row = i as u8;
        i += 1;
    }
    rows
}

// Every keyword has a bit in a `Names` set.
const _: () = assert!(TABLE.len() <= 64);

/// Longest keyword name plus one: no name this long or longer is looked for.
const NAME_LIMIT: usize = 24;

/// A name's slot in `BY_HASH`: its first and last eight bytes (four for a
/// shorter name, all of one under four) and its length, mixed by one
/// multiplication. The same words `same_words` then compares, so a lookup
/// reads the name once more at most.
#[inline(always)]
const fn slot_of(b: &[u8], mul: u64) -> usize {
    let n = b.len();
    let x = if n >= 8 {
        word(b, 0, 8) ^ word(b, n - 8, 8).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    } else if n >= 4 {
        word(b, 0, 4) | word(b, n - 4, 4) << 32
    } else {
        word(b, 0, n)
    };
    ((x ^ n as u64).wrapping_mul(mul) >> 56) as usize
}

/// `len` bytes of `b` from `at`, little-endian.
#[inline(always)]
const fn word(b: &[u8], at: usize, len: usize) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < len {
        w |= (b[at + i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// No keyword in `BY_HASH`'s slot.
const EMPTY: u8 = u8::MAX;

/// `TABLE` positions by `slot_of`, and the multiplier that gives every
/// keyword a slot of its own: the first odd number from `HASH_SEED` up that
/// does (the seed does for the table as it is; a keyword added may move it).
/// Built at compile time: a lookup hashes the name, reads one slot and
/// compares one name, where comparing the names of its length one by one cost
/// 114 wasm operators for a keyword and 231 for a property name.
const HASH_SEED: u64 = 0x7e2a_3a6f_b260_d835;
static BY_HASH: ([u8; 256], u64) = {
    let mut mul = HASH_SEED | 1;
    loop {
        let mut slots = [EMPTY; 256];
        let mut i = 0;
        while i < TABLE.len() {
            let at = slot_of(TABLE[i].name.as_bytes(), mul);
            if slots[at] != EMPTY {
                break;
            }
            slots[at] = i as u8;
            i += 1;
        }
        if i == TABLE.len() {
            break (slots, mul);
        }
        mul = mul.wrapping_add(2);
    }
};

/// The keyword `name` names, if any: a lookup for text, none for a `doc::Key`.
#[inline]
pub fn get<N: Name + ?Sized>(name: &N) -> Option<&'static Keyword> {
    name.keyword()
}

/// Looks a keyword up by its name's text (inlined natively only, as `doc::Key::new`).
/// The row is `KEYWORDS`', the static: `TABLE` is a constant, and a reference
/// into it may point at a copy of its own (debug builds make one per use), while
/// `doc::Key` tells keywords apart by their row's address.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn lookup(name: &str) -> Option<&'static Keyword> {
    position(name).map(|i| &KEYWORDS[usize::from(i)])
}

/// Each keyword's row by name, for lookups that compare rows, not text
/// (`lookup::Fields::field(kw::TYPE)`).
pub mod kw {
    use super::{Keyword, TABLE};

    pub const TYPE: &Keyword = &TABLE[0];
    pub const PROPERTIES: &Keyword = &TABLE[1];
    pub const DESCRIPTION: &Keyword = &TABLE[2];
    pub const ITEMS: &Keyword = &TABLE[3];
    pub const REQUIRED: &Keyword = &TABLE[4];
    pub const ENUM: &Keyword = &TABLE[5];
    pub const TITLE: &Keyword = &TABLE[6];
    pub const DEFAULT: &Keyword = &TABLE[7];
    pub const ANY_OF: &Keyword = &TABLE[8];
    pub const REF: &Keyword = &TABLE[9];
    pub const FORMAT: &Keyword = &TABLE[10];
    pub const MINIMUM: &Keyword = &TABLE[11];
    pub const MAXIMUM: &Keyword = &TABLE[12];
    pub const CONST: &Keyword = &TABLE[13];
    pub const PATTERN: &Keyword = &TABLE[14];
    pub const ONE_OF: &Keyword = &TABLE[15];
    pub const DEFS: &Keyword = &TABLE[16];
    pub const ADDITIONAL_PROPERTIES: &Keyword = &TABLE[17];
    pub const SCHEMA: &Keyword = &TABLE[18];
    pub const MIN_LENGTH: &Keyword = &TABLE[19];
    pub const MAX_LENGTH: &Keyword = &TABLE[20];
    pub const MIN_ITEMS: &Keyword = &TABLE[21];
    pub const MAX_ITEMS: &Keyword = &TABLE[22];
    pub const ALL_OF: &Keyword = &TABLE[23];
    pub const NULLABLE: &Keyword = &TABLE[24];
    pub const NOT: &Keyword = &TABLE[25];
    pub const EXAMPLES: &Keyword = &TABLE[26];
    pub const PROPERTY_NAMES: &Keyword = &TABLE[27];
    pub const DEFINITIONS: &Keyword = &TABLE[28];
    pub const EXCLUSIVE_MINIMUM: &Keyword = &TABLE[29];
    pub const EXCLUSIVE_MAXIMUM: &Keyword = &TABLE[30];
    pub const UNIQUE_ITEMS: &Keyword = &TABLE[31];
    pub const MULTIPLE_OF: &Keyword = &TABLE[32];
    pub const PREFIX_ITEMS: &Keyword = &TABLE[33];
    pub const PATTERN_PROPERTIES: &Keyword = &TABLE[34];
    pub const DEPRECATED: &Keyword = &TABLE[35];
    pub const READ_ONLY: &Keyword = &TABLE[36];
    pub const WRITE_ONLY: &Keyword = &TABLE[37];
    pub const ID: &Keyword = &TABLE[38];
    pub const COMMENT: &Keyword = &TABLE[39];
    pub const ANCHOR: &Keyword = &TABLE[40];
    pub const DYNAMIC_ANCHOR: &Keyword = &TABLE[41];
    pub const DYNAMIC_REF: &Keyword = &TABLE[42];
    pub const VOCABULARY: &Keyword = &TABLE[43];
    pub const IF: &Keyword = &TABLE[44];
    pub const THEN: &Keyword = &TABLE[45];
    pub const ELSE: &Keyword = &TABLE[46];
    pub const DEPENDENT_SCHEMAS: &Keyword = &TABLE[47];
    pub const CONTAINS: &Keyword = &TABLE[48];
    pub const UNEVALUATED_ITEMS: &Keyword = &TABLE[49];
    pub const UNEVALUATED_PROPERTIES: &Keyword = &TABLE[50];
    pub const MAX_CONTAINS: &Keyword = &TABLE[51];
    pub const MIN_CONTAINS: &Keyword = &TABLE[52];
    pub const MAX_PROPERTIES: &Keyword = &TABLE[53];
    pub const MIN_PROPERTIES: &Keyword = &TABLE[54];
    pub const DEPENDENT_REQUIRED: &Keyword = &TABLE[55];
    pub const CONTENT_ENCODING: &Keyword = &TABLE[56];
    pub const CONTENT_MEDIA_TYPE: &Keyword = &TABLE[57];
    pub const CONTENT_SCHEMA: &Keyword = &TABLE[58];
    pub const PROPERTY_ORDERING: &Keyword = &TABLE[59];
    pub const EXAMPLE: &Keyword = &TABLE[60];
    pub const ADDITIONAL_ITEMS: &Keyword = &TABLE[61];
    pub const DEPENDENCIES: &Keyword = &TABLE[62];
}

/// The rows of the table's first 32 keywords (those with a bit in `doc::Map`)
/// that constrain instances of some types only, and are worth spilling:
/// those a target with typed constraints checks against the node's type
/// (`profile::Caps::refuses_value`).
pub const TYPED_CONSTRAINT_ROWS: u32 = {
    let mut rows = 0u32;
    let mut row = 0;
    while row < 32 {
        let k = &TABLE[row];
        if matches!(k.kind, Kind::Validation) && k.spill && !matches!(k.applies, Applies::Any) {
            rows |= 1 << row;
        }
        row += 1;
    }
    rows
};

/// The rows of the table's first 32 keywords (those with a bit in `doc::Map`)
/// whose slot is one of `slots`.
const fn slot_rows(slots: &[Slot]) -> u32 {
    let mut rows = 0u32;
    let mut row = 0;
    while row < 32 {
        let mut i = 0;
        while i < slots.len() {
            if TABLE[row].slot as u8 == slots[i] as u8 {
                rows |= 1 << row;
            }
            i += 1;
        }
        row += 1;
    }
    rows
}

/// The rows of the table's first 32 keywords (those with a bit in `doc::Map`)
/// whose value holds subschemas (any slot but `Slot::Data`).
pub const SUBSCHEMA_ROWS: u32 = slot_rows(&[Slot::Schema, Slot::SchemaArray, Slot::SchemaMap]);

/// The rows of the table's first 32 keywords (those with a bit in `doc::Map`)
/// whose value is a map of subschemas (`properties`, `$defs`).
pub const SCHEMA_MAP_ROWS: u32 = slot_rows(&[Slot::SchemaMap]);

/// A set of names, such as the keywords a target keeps or strips: the
/// table's keywords are one bit each, worked out at compile time, so asking
/// whether a key is in it compares no text (a name the table lacks is looked
/// for in the list).
#[derive(Clone, Copy, Debug)]
pub struct Names {
    list: &'static [&'static str],
    rows: u64,
    /// The list holds a name the table lacks.
    others: bool,
}

impl Names {
    pub const EMPTY: Names = Names::new(&[]);

    pub const fn new(list: &'static [&'static str]) -> Names {
        let (mut rows, mut others) = (0u64, false);
        let mut i = 0;
        while i < list.len() {
            match row_of(list[i]) {
                Some(row) => rows |= 1 << row,
                None => others = true,
            }
            i += 1;
        }
        Names { list, rows, others }
    }

    /// An interned key is answered from the bits; text by a scan of the list,
    /// which for the short lists targets write costs less than a lookup.
    #[inline]
    pub fn contains<N: Name + AsRef<str> + ?Sized>(&self, name: &N) -> bool {
        match name.interned() {
            Some(Some(k)) => self.rows >> k.row & 1 == 1,
            Some(None) => self.others && self.list.contains(&name.as_ref()),
            None => self.list.contains(&name.as_ref()),
        }
    }

    /// The table's keywords among the names, one bit each by row.
    pub const fn keyword_rows(&self) -> u64 {
        self.rows
    }

    /// The names, as written.
    pub fn list(&self) -> &'static [&'static str] {
        self.list
    }
}

/// The table position of `name`, at compile time.
const fn row_of(name: &str) -> Option<usize> {
    let mut i = 0;
    while i < TABLE.len() {
        if const_eq(TABLE[i].name.as_bytes(), name.as_bytes()) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The `doc::Map` bits (rows below 32) of the resolution-only keywords.
pub const RESOLUTION_BITS: u32 = {
    let mut bits = 0u32;
    let mut i = 0;
    while i < TABLE.len() {
        if TABLE[i].resolution && i < 32 {
            bits |= 1 << i;
        }
        i += 1;
    }
    bits
};

/// `a == b` where a `const fn` needs it (slice equality is not `const`).
pub(crate) const fn const_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// What may name a keyword: text is looked up in the table, a `doc::Key`
/// holds its answer already. The questions below take either.
pub trait Name {
    /// The keyword this names, if any.
    fn keyword(&self) -> Option<&'static Keyword>;

    /// True for keywords that only serve `$ref` resolution.
    #[inline]
    fn is_resolution(&self) -> bool {
        self.keyword().is_some_and(|k| k.resolution)
    }

    /// `Some(keyword())` when the answer costs no lookup (an interned key).
    #[inline]
    fn interned(&self) -> Option<Option<&'static Keyword>> {
        None
    }

    /// The keyword's row when it is known without a lookup: what a member
    /// lookup compares instead of text.
    #[inline]
    fn row(&self) -> Option<u8> {
        None
    }
}

impl Name for str {
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        lookup(self)
    }

    #[inline]
    fn is_resolution(&self) -> bool {
        resolution_sieve(self) && lookup(self).is_some_and(|k| k.resolution)
    }
}

impl Name for Keyword {
    /// The row of the `KEYWORDS` static, whichever copy `self` is (a
    /// `kw::` constant may be one of its own in a debug build).
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        KEYWORDS.get(self.row as usize)
    }

    #[inline]
    fn interned(&self) -> Option<Option<&'static Keyword>> {
        Some(self.keyword())
    }

    #[inline]
    fn row(&self) -> Option<u8> {
        Some(self.row)
    }
}

impl AsRef<str> for Keyword {
    #[inline]
    fn as_ref(&self) -> &str {
        self.name
    }
}

impl Name for std::borrow::Cow<'_, str> {
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        lookup(self)
    }

    #[inline]
    fn is_resolution(&self) -> bool {
        (**self).is_resolution()
    }
}

impl Name for String {
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        lookup(self)
    }

    #[inline]
    fn is_resolution(&self) -> bool {
        self.as_str().is_resolution()
    }
}

impl<T: Name + ?Sized> Name for &T {
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        (**self).keyword()
    }

    #[inline]
    fn interned(&self) -> Option<Option<&'static Keyword>> {
        (**self).interned()
    }

    #[inline]
    fn row(&self) -> Option<u8> {
        (**self).row()
    }

    #[inline]
    fn is_resolution(&self) -> bool {
        (**self).is_resolution()
    }
}

/// A keyword's position in `KEYWORDS`, by name.
fn position(name: &str) -> Option<u8> {
    let b = name.as_bytes();
    if b.is_empty() || b.len() >= NAME_LIMIT {
        return None;
    }
    let (slots, mul) = &BY_HASH;
    let i = slots[slot_of(b, *mul)];
    (i != EMPTY && same_name(TABLE[usize::from(i)].name.as_bytes(), b)).then_some(i)
}

/// Two names, equal. In wasm a slice compare calls `memcmp`, a loop over the
/// bytes, and every key of every node is looked up here several times in a
/// call (6-7% of a call's wasm operators went to it); natively the slice
/// compare is the faster.
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    #[cfg(target_arch = "wasm32")]
    return same_words(a, b);
    #[cfg(not(target_arch = "wasm32"))]
    return a == b;
}

/// `a == b` for names up to 16 bytes as two words each, read from both ends
/// (overlapping when shorter). Not through the const `word` that `slot_of`
/// reads with: here that measured 2-3% more wasm operators a call.
#[cfg(any(target_arch = "wasm32", test))]
#[inline(always)]
fn same_words(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    let word8 = |s: &[u8], at: usize| s.get(at..at + 8).map(|w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    let word4 = |s: &[u8], at: usize| s.get(at..at + 4).map(|w| u32::from_le_bytes(w.try_into().unwrap_or([0; 4])));
    match n {
        _ if n != b.len() => false,
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The slot of `name`: unknown keys hold plain data.
#[inline]
pub fn slot<N: Name + ?Sized>(name: &N) -> Slot {
    name.keyword().map_or(Slot::Data, |k| k.slot)
}

/// True for keywords whose value is worth spilling into `description` when stripped.
#[inline]
pub fn spillable<N: Name + ?Sized>(name: &N) -> bool {
    name.keyword().is_some_and(|k| k.spill)
}

/// The instance type a keyword constrains (`Any` for unknown keys).
#[inline]
pub fn applies<N: Name + ?Sized>(name: &N) -> Applies {
    name.keyword().map_or(Applies::Any, |k| k.applies)
}

/// True for keywords that only annotate (they never change what validates).
#[inline]
pub fn is_annotation<N: Name + ?Sized>(name: &N) -> bool {
    name.keyword().is_some_and(|k| k.annotation)
}

/// The name lengths, first and last bytes of the resolution keywords: every
/// key of every node is asked whether it is one during the draft upgrade, and
/// this turns the common ones away (`type`, `description`, `default`) without
/// a lookup.
const RESOLUTION_SIEVE: (u32, u128, u128) = {
    let (mut lengths, mut firsts, mut lasts) = (0u32, 0u128, 0u128);
    let mut i = 0;
    while i < TABLE.len() {
        let name = TABLE[i].name.as_bytes();
        if TABLE[i].resolution {
            lengths |= 1 << name.len();
            firsts |= 1 << name[0];
            lasts |= 1 << name[name.len() - 1];
        }
        i += 1;
    }
    (lengths, firsts, lasts)
};

/// True for keywords that only serve `$ref` resolution (`$defs`, `$id`, ...).
#[inline]
pub fn is_resolution<N: Name + ?Sized>(name: &N) -> bool {
    name.is_resolution()
}

/// Whether `name` could be a resolution keyword by its length, first and
/// last bytes: false settles it without a lookup.
#[inline]
fn resolution_sieve(name: &str) -> bool {
    let (lengths, firsts, lasts) = RESOLUTION_SIEVE;
    let bytes = name.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else { return false };
    bytes.len() < 32
        && lengths >> bytes.len() & 1 == 1
        && first < 128
        && firsts >> first & 1 == 1
        && last < 128
        && lasts >> last & 1 == 1
}

/// True where a path through `name` reaches a member, item or name of the instance.
#[inline]
pub fn consumes<N: Name + ?Sized>(name: &N) -> bool {
    name.keyword().is_some_and(|k| k.consumes)
}

/// The shape `name`'s value must have (`Any` for unknown keys).
#[inline]
pub fn shape<N: Name + ?Sized>(name: &N) -> Shape {
    name.keyword().map_or(Shape::Any, |k| k.shape)
}

/// Which bound `name` is, if it is a standalone one.
#[inline]
pub fn bound<N: Name + ?Sized>(name: &N) -> Option<Bound> {
    name.keyword().and_then(|k| k.bound)
}

/// The keywords every target's structure is made of, in table order.
pub fn structural() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(|k| k.structural).map(|k| k.name)
}

/// True for the constraints `stripStrictConstraints` strips.
#[inline]
pub fn is_strict_constraint<N: Name + ?Sized>(name: &N) -> bool {
    name.keyword().is_some_and(|k| k.strict_constraint)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word compare (what wasm runs) agrees with byte equality at every
    /// length up to past the words, with any one byte changed.
    #[test]
    fn same_words_is_byte_equality() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
            assert!(same_words(&a, &a.clone()) && same_name(&a, &a.clone()), "{n}");
            assert!(!same_words(&a, &a[..n.saturating_sub(1)]) || n == 0, "{n} and one less");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_words(&a, &b) && !same_name(&a, &b), "{n} at {at}");
            }
        }
    }

    /// The resolution bits are the resolution keywords that have a bit.
    #[test]
    fn resolution_bits_name_the_resolution_keywords_with_a_bit() {
        for k in KEYWORDS {
            assert_eq!(RESOLUTION_BITS & 1u32.checked_shl(u32::from(k.row)).unwrap_or(0) != 0, k.resolution && k.row < 32, "{}", k.name);
        }
        assert_ne!(RESOLUTION_BITS, 0, "$defs and definitions have bits");
    }

    /// Writers copy a keyword's name as it is, in JSON text
    /// (`Value::write_json`) and in pointers (`Pointer::push_keyword`): no
    /// name holds a character either would escape.
    #[test]
    fn no_keyword_name_needs_escaping() {
        for k in KEYWORDS {
            assert!(!k.name.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20 || b == b'~' || b == b'/'), "{}", k.name);
        }
    }

    /// Every keyword is found by its name, and only by it.
    #[test]
    fn every_name_finds_its_keyword() {
        for k in KEYWORDS {
            assert!(get(k.name).is_some_and(|found| std::ptr::eq(found, k)), "{}", k.name);
            for at in 0..k.name.len() {
                let mut other = k.name.as_bytes().to_vec();
                other[at] ^= 0x20;
                let other = String::from_utf8(other).unwrap();
                assert!(get(&other).map_or(true, |found| found.name == other), "{other}");
            }
        }
    }

    /// A set answers as a scan of its list would, for keywords and other
    /// names alike, asked by text (by an interned key: `doc::key`'s tests).
    #[test]
    fn name_sets_answer_as_their_lists() {
        let list: &'static [&'static str] = &["type", "$schema", "x-vendor", "additionalItems"];
        let set = Names::new(list);
        for k in KEYWORDS {
            assert_eq!(usize::from(k.row), KEYWORDS.iter().position(|o| std::ptr::eq(o, k)).unwrap(), "{}", k.name);
            assert_eq!(set.contains(k.name), list.contains(&k.name), "{}", k.name);
        }
        for other in ["x-vendor", "x-other", "", "Type"] {
            assert_eq!(set.contains(other), list.contains(&other), "{other}");
        }
        assert!(!Names::new(&["type"]).contains("x-vendor") && !Names::EMPTY.contains("type"));
    }

    /// `kw`'s constants name their rows.
    #[test]
    fn row_constants_name_their_rows() {
        for (k, name) in [(kw::TYPE, "type"), (kw::REF, "$ref"), (kw::ADDITIONAL_PROPERTIES, "additionalProperties"), (kw::DEPENDENCIES, "dependencies")] {
            assert_eq!((k.name, usize::from(k.row)), (name, KEYWORDS.iter().position(|o| o.name == name).unwrap()));
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in KEYWORDS.iter().enumerate() {
            assert!(KEYWORDS[i + 1..].iter().all(|b| b.name != a.name), "duplicate {}", a.name);
        }
    }

    #[test]
    fn every_keyword_is_found_by_name() {
        assert!(KEYWORDS.iter().all(|k| k.name.len() < NAME_LIMIT && KEYWORDS.len() <= 256));
        for k in KEYWORDS {
            assert_eq!(get(k.name).map(|f| f.name), Some(k.name));
        }
        assert!(get("").is_none() && get("typ").is_none() && get(&"x".repeat(NAME_LIMIT + 5)).is_none());
    }

    /// The hashed lookup finds no keyword for a name one byte away from one
    /// (each byte changed, one byte more or less), unless that name is
    /// another keyword.
    #[test]
    fn names_near_a_keyword_are_no_keyword() {
        for k in KEYWORDS {
            let name = k.name.as_bytes();
            let mut near: Vec<Vec<u8>> = vec![name[1..].to_vec(), name[..name.len() - 1].to_vec(), [name, b"s"].concat(), [b"x", name].concat()];
            for at in 0..name.len() {
                for c in [b'a', b'Z', b'_', b'$'] {
                    let mut n = name.to_vec();
                    n[at] = c;
                    near.push(n);
                }
            }
            for n in near {
                let n = String::from_utf8(n).unwrap();
                let want = KEYWORDS.iter().find(|o| o.name == n).map(|o| o.row);
                assert_eq!(get(n.as_str()).map(|f| f.row), want, "{n:?} near {}", k.name);
            }
        }
    }

    /// Each row's member text is its name quoted, then a colon.
    #[test]
    fn member_text_is_the_quoted_name() {
        for k in KEYWORDS {
            assert_eq!(k.member, format!("\"{}\":", k.name));
        }
    }

    /// The slot masks hold, of the rows with a bit, exactly those of their slots.
    #[test]
    fn slot_rows_are_the_rows_of_their_slots() {
        for k in KEYWORDS.iter().take(32) {
            let bit = 1u32 << k.row;
            assert_eq!(SUBSCHEMA_ROWS & bit != 0, k.slot != Slot::Data, "{}", k.name);
            assert_eq!(SCHEMA_MAP_ROWS & bit != 0, k.slot == Slot::SchemaMap, "{}", k.name);
        }
        assert!(SUBSCHEMA_ROWS & (1 << kw::ITEMS.row) != 0 && SCHEMA_MAP_ROWS & (1 << kw::PROPERTIES.row) != 0);
    }

    #[test]
    fn shapes_agree_with_slots() {
        for k in KEYWORDS {
            let holds = match k.shape {
                Shape::Schema => k.slot == Slot::Schema,
                Shape::SchemaArray => k.slot == Slot::SchemaArray,
                Shape::SchemaMap => k.slot == Slot::SchemaMap,
                Shape::Any => true,
                _ => k.slot == Slot::Data,
            };
            assert!(holds, "{}: shape {:?} in slot {:?}", k.name, k.shape, k.slot);
            assert!(!k.consumes || k.slot != Slot::Data, "{} consumes but holds no subschema", k.name);
            assert!(k.bound.is_none() || matches!(k.shape, Shape::Count | Shape::Number), "{} bounds a non-number", k.name);
            assert!(!k.annotation || k.slot == Slot::Data, "{} annotates but holds subschemas", k.name);
        }
    }

    #[test]
    fn structural_keywords_in_table_order() {
        let names: Vec<&str> = structural().collect();
        assert_eq!(names, ["type", "properties", "items", "required", "anyOf", "$ref", "$defs", "additionalProperties"]);
        for k in KEYWORDS {
            assert_eq!(is_resolution(k.name), k.resolution, "{}: the sieve disagrees with the table", k.name);
        }
        assert!(is_resolution("$defs") && is_resolution("$anchor") && !is_resolution("$ref") && !is_resolution("$idé"));
        assert!(is_annotation("$comment") && is_annotation("example") && !is_annotation("nullable"));
        assert_eq!((bound("minItems"), bound("exclusiveMaximum"), bound("minContains")), (Some(Bound::Lower), Some(Bound::Upper), None));
    }

    #[test]
    fn unknown_keys_are_data() {
        assert_eq!(slot("x-vendor"), Slot::Data);
        assert_eq!(slot("properties"), Slot::SchemaMap);
        assert!(spillable("pattern") && !spillable("$ref"));
    }
}
