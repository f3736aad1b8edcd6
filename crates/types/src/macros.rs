/// A closed set of strings from the spec, as an enum that keeps any other value in `Unknown`.
///
/// Serialises to and from the bare string. With the `ts` feature its TypeScript type is the union
/// of the known strings widened by `(string & {})`, so the UI gets completion and still accepts new
/// values. Exported (hidden) so the app's own closed sets, like `IpcErrorKind`, share it.
#[doc(hidden)]
#[macro_export]
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $s:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version does not know yet, kept as sent.
            Unknown(String),
        }

        impl $name {
            /// Every value this version knows, in the spec's order.
            pub const KNOWN: &'static [&'static str] = &[$($s),+];

            /// The wire string.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $s, )+
                    Self::Unknown(other) => other.as_str(),
                }
            }

            /// Whether this is a value the spec lists.
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Unknown(_))
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Ok(match s {
                    $( $s => Self::$variant, )+
                    other => Self::Unknown(other.to_owned()),
                })
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s.parse() {
                    Ok(v) => v,
                    Err(never) => match never {},
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok(Self::from(s.as_ref()))
            }
        }

        #[cfg(feature = "ts")]
        impl ::ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &::ts_rs::Config) -> String {
                stringify!($name).to_owned()
            }
            fn inline(_: &::ts_rs::Config) -> String {
                let mut out = String::new();
                $( out.push_str(concat!("\"", $s, "\" | ")); )+
                out.push_str("(string & {})");
                out
            }
            fn decl(cfg: &::ts_rs::Config) -> String {
                format!("type {} = {};", stringify!($name), <Self as ::ts_rs::TS>::inline(cfg))
            }
            fn decl_concrete(cfg: &::ts_rs::Config) -> String {
                <Self as ::ts_rs::TS>::decl(cfg)
            }
            fn output_path() -> Option<::std::path::PathBuf> {
                Some(::std::path::PathBuf::from(concat!(stringify!($name), ".ts")))
            }
        }
    };
}

/// Derives shared by every wire struct: serde with `None` fields left out, and ts-rs bindings
/// (optional fields as `field?: T`) under the `ts` feature.
macro_rules! wire {
    ($($item:item)*) => {
        $(
            #[::serde_with::skip_serializing_none]
            #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
            #[cfg_attr(feature = "ts", derive(::ts_rs::TS), ts(export, optional_fields))]
            $item
        )*
    };
}
