//! Which package name a standalone crate (`regen --spec … --out DIR`) gets: `--name` when
//! given, else the name of the crate the generator already wrote in `DIR` (so regenerating from
//! a document saved under another file name keeps every dependent's manifest and `use` lines),
//! else `generated-<file stem>` for a first generation. Pure: the caller reads `DIR/Cargo.toml`.

use crate::krate::MANIFEST_MARKER;

/// Where the chosen name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameSource {
    /// `--name`.
    Requested,
    /// The crate the generator already wrote in the output directory.
    Kept,
    /// The document's file name: a first generation.
    FileName,
}

/// The package name a generation writes, and the one it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageName {
    /// The name `Cargo.toml` gets.
    pub name: String,
    /// Where it came from.
    pub source: NameSource,
    /// The name of the crate the generator wrote in the output directory before, if any.
    pub previous: Option<String>,
}

impl PackageName {
    /// The previous name when this generation changes it (only `--name` can).
    pub fn renamed_from(&self) -> Option<&str> {
        self.previous
            .as_deref()
            .filter(|previous| *previous != self.name)
    }
}

/// Why no package name could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackageNameError {
    /// `--name` is not a package name.
    #[error(
        "--name {0:?} is not a package name (an ASCII letter, then ASCII letters, digits, `-`, `_`)"
    )]
    Requested(String),
    /// The output directory's manifest carries the generator's header but no readable name:
    /// guessing one would rename the crate under its dependents.
    #[error(
        "the Cargo.toml already in the output directory was written by the generator but its \
         [package] name cannot be read; pass --name"
    )]
    Unreadable,
}

/// Chooses the name (see the module's documentation). `existing_manifest` is the text of the
/// output directory's `Cargo.toml`, `None` when there is none; a manifest the generator did
/// not write is not a crate to keep the name of. `spec_file_name` is the document's file name.
pub fn package_name(
    requested: Option<&str>,
    existing_manifest: Option<&str>,
    spec_file_name: &str,
) -> Result<PackageName, PackageNameError> {
    let previous = existing_manifest
        .map(generated_package_name)
        .transpose()
        .map(Option::flatten);
    let (name, source, previous) = match (requested, previous) {
        (Some(requested), _) if !is_package_name(requested) => {
            return Err(PackageNameError::Requested(requested.to_owned()));
        }
        // `--name` is the way past a manifest whose name cannot be read.
        (Some(requested), previous) => (
            requested.to_owned(),
            NameSource::Requested,
            previous.ok().flatten(),
        ),
        (None, Err(error)) => return Err(error),
        (None, Ok(Some(previous))) => (previous.clone(), NameSource::Kept, Some(previous)),
        (None, Ok(None)) => (
            default_package_name(spec_file_name),
            NameSource::FileName,
            None,
        ),
    };
    Ok(PackageName {
        name,
        source,
        previous,
    })
}

/// The `[package]` name of a manifest the generator wrote (`Ok(None)`: not one it wrote).
pub fn generated_package_name(manifest: &str) -> Result<Option<String>, PackageNameError> {
    let mut lines = manifest.lines().map(str::trim_end);
    if !lines
        .next()
        .is_some_and(|first| first.starts_with(MANIFEST_MARKER))
    {
        return Ok(None);
    }
    let name = lines
        .skip_while(|line| *line != "[package]")
        .skip(1)
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.strip_prefix("name = "))
        .and_then(|value| value.strip_prefix('"')?.strip_suffix('"'))
        .filter(|name| is_package_name(name));
    match name {
        Some(name) => Ok(Some(name.to_owned())),
        None => Err(PackageNameError::Unreadable),
    }
}

/// `generated-<stem>`: the file name without its last extension, lower-cased, anything but
/// ASCII letters and digits as `-`.
pub fn default_package_name(spec_file_name: &str) -> String {
    let stem = match spec_file_name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => spec_file_name,
    };
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("generated-{stem}")
}

/// An ASCII letter, then ASCII letters, digits, `-` and `_`: what the generator writes
/// unquoted-safe into `Cargo.toml` and cargo accepts.
pub fn is_package_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests;
