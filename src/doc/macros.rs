//! `json!`: a [`Value`](crate::doc::Value) from JSON-like syntax, as
//! `serde_json::json!` writes one. An interpolated expression is read by
//! reference through [`ToJson`](crate::doc::ToJson), so it is not moved.

/// Builds a `Value`: `json!({"type": "object", "required": names})`.
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::__json_value!($($json)+)
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __json_value {
    (null) => { $crate::doc::Value::Null };
    (true) => { $crate::doc::Value::Bool(true) };
    (false) => { $crate::doc::Value::Bool(false) };
    ([]) => { $crate::doc::Value::Array(::std::vec::Vec::new()) };
    ([ $($tt:tt)+ ]) => { $crate::doc::Value::Array($crate::__json_array!([] $($tt)+)) };
    ({}) => { $crate::doc::Value::Object($crate::doc::Map::new()) };
    ({ $($tt:tt)+ }) => {
        $crate::doc::Value::Object({
            let mut map = $crate::doc::Map::new();
            $crate::__json_object!(map [] ($($tt)+));
            map
        })
    };
    ($other:expr) => { $crate::doc::ToJson::to_json(&$other) };
}

/// Elements, munched one at a time into `[built,*]`.
#[macro_export]
#[doc(hidden)]
macro_rules! __json_array {
    ([$($built:expr,)*]) => { ::std::vec![$($built),*] };
    ([$($built:expr,)*] null $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::doc::Value::Null,] $($($rest)*)?)
    };
    ([$($built:expr,)*] true $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::doc::Value::Bool(true),] $($($rest)*)?)
    };
    ([$($built:expr,)*] false $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::doc::Value::Bool(false),] $($($rest)*)?)
    };
    ([$($built:expr,)*] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::__json_value!([$($inner)*]),] $($($rest)*)?)
    };
    ([$($built:expr,)*] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::__json_value!({$($inner)*}),] $($($rest)*)?)
    };
    ([$($built:expr,)*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::__json_array!([$($built,)* $crate::__json_value!($next),] $($($rest)*)?)
    };
}

/// Members: the key's tokens gather in `[key]` up to the colon, then the
/// value is read and inserted, then the next member starts.
#[macro_export]
#[doc(hidden)]
macro_rules! __json_object {
    ($map:ident [] ()) => {};
    ($map:ident [$($key:tt)+] (: null $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::doc::Value::Null) ($($($rest)*)?));
    };
    ($map:ident [$($key:tt)+] (: true $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::doc::Value::Bool(true)) ($($($rest)*)?));
    };
    ($map:ident [$($key:tt)+] (: false $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::doc::Value::Bool(false)) ($($($rest)*)?));
    };
    ($map:ident [$($key:tt)+] (: [$($inner:tt)*] $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::__json_value!([$($inner)*])) ($($($rest)*)?));
    };
    ($map:ident [$($key:tt)+] (: {$($inner:tt)*} $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::__json_value!({$($inner)*})) ($($($rest)*)?));
    };
    ($map:ident [$($key:tt)+] (: $value:expr $(, $($rest:tt)*)?)) => {
        $crate::__json_object!(@insert $map [$($key)+] ($crate::__json_value!($value)) ($($($rest)*)?));
    };
    (@insert $map:ident [$($key:tt)+] ($value:expr) ($($rest:tt)*)) => {
        let _ = $map.insert($crate::doc::Key::from($($key)+), $value);
        $crate::__json_object!($map [] ($($rest)*));
    };
    ($map:ident [$($key:tt)*] ($next:tt $($rest:tt)*)) => {
        $crate::__json_object!($map [$($key)* $next] ($($rest)*));
    };
}
