//! The public-API listing of a hand-written crate (the runtime): one line per item a user can
//! name, `KIND PATH SIGNATURE`, read from the crate's sources with `syn` (nightly rustdoc JSON is
//! not available), so a rename or a signature change is always a reviewed diff.
//!
//! The walk starts at the crate root and follows `mod` declarations (`#[path]` included) into
//! every file, public or not, because a `pub use` may re-export from a private module. An item
//! is listed at every public path it is reachable by: through `pub mod`s and through `pub use`
//! (globs included) in a public module. Anything `#[doc(hidden)]` is left out with everything
//! under it, as rustdoc leaves it out. Inherent methods and trait impls are listed under their
//! type, found by the type's name anywhere in the crate. A `#[cfg(...)]` on the way is kept on
//! the line. A `pub use` of another crate is one `reexport` line. The reader is the caller's:
//! this module does no I/O.

use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;
use syn::{Attribute, Fields, ImplItem, Item, TraitItem, UseTree, Visibility};

use crate::surface::listing::compact;

/// Why a crate could not be listed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PublicApiError {
    /// A module's file is not there.
    #[error("{path}: module `{module}` has no file (tried {tried})")]
    MissingModule {
        /// The file declaring it.
        path: String,
        /// The module's name.
        module: String,
        /// The files looked for.
        tried: String,
    },
    /// A file is not Rust `syn` can parse.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What `syn` said.
        message: String,
    },
}

/// The listing of the crate whose root file is `root` (a path the reader understands, such as
/// `src/lib.rs`), with `read` giving each file's text (`None` if there is no such file).
///
/// # Errors
///
/// [`PublicApiError`] if a declared module has no file or a file does not parse.
pub fn list_public_api(
    root: &str,
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<String, PublicApiError> {
    let mut crate_ = Crate::default();
    crate_.load(root, Vec::new(), dir_of(root, true), read)?;
    let mut lines = BTreeSet::new();
    let mut seen = BTreeSet::new();
    crate_.list_module(&[], &[], &[], &mut lines, &mut seen);
    let mut out = String::from(
        "# The crate's public API, one item per line (KIND PATH SIGNATURE): what a user can name,\n\
         # read from the sources; #[doc(hidden)] items are left out. Written by cargo xtask regen.\n",
    );
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// Every module's items, and every impl block by the name of its type.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Vec<Item>>,
    impls: BTreeMap<String, Vec<syn::ItemImpl>>,
}

/// The directory a file's child modules live in: its own for `lib.rs`/`mod.rs` (or a `#[path]`
/// file), else one named after it.
fn dir_of(file: &str, owns_dir: bool) -> String {
    let (parent, name) = file.rsplit_once('/').unwrap_or(("", file));
    let stem = name.strip_suffix(".rs").unwrap_or(name);
    let parent = if parent.is_empty() {
        String::new()
    } else {
        format!("{parent}/")
    };
    if owns_dir || stem == "mod" || stem == "lib" {
        parent
    } else {
        format!("{parent}{stem}/")
    }
}

impl Crate {
    fn load(
        &mut self,
        file: &str,
        module: Vec<String>,
        dir: String,
        read: &mut dyn FnMut(&str) -> Option<String>,
    ) -> Result<(), PublicApiError> {
        let text = read(file).ok_or_else(|| PublicApiError::MissingModule {
            path: file.to_owned(),
            module: module.last().cloned().unwrap_or_default(),
            tried: file.to_owned(),
        })?;
        let parsed = syn::parse_file(&text).map_err(|error| PublicApiError::Parse {
            path: file.to_owned(),
            message: error.to_string(),
        })?;
        self.load_items(file, parsed.items, module, &dir, read)
    }

    fn load_items(
        &mut self,
        file: &str,
        items: Vec<Item>,
        module: Vec<String>,
        dir: &str,
        read: &mut dyn FnMut(&str) -> Option<String>,
    ) -> Result<(), PublicApiError> {
        let mut kept = Vec::new();
        for item in items {
            if item_attrs(&item).0.iter().any(is_cfg_test)
                || matches!(&item, Item::Mod(inner) if inner.attrs.iter().any(is_cfg_test))
            {
                continue;
            }
            match item {
                Item::Mod(mut inner) => {
                    let mut child = module.clone();
                    child.push(inner.ident.to_string());
                    if let Some((_, items)) = inner.content.take() {
                        let child_dir = format!("{dir}{}/", inner.ident);
                        self.load_items(file, items, child, &child_dir, read)?;
                    } else if let Some(path) = path_attr(&inner.attrs) {
                        // Relative to the declaring file's own directory.
                        let target = format!("{}{path}", dir_of(file, true));
                        self.load(&target, child, dir_of(&target, true), read)?;
                    } else {
                        let flat = format!("{dir}{}.rs", inner.ident);
                        let nested = format!("{dir}{}/mod.rs", inner.ident);
                        if let Some(text_exists) = read(&flat).map(|_| flat.clone()) {
                            self.load(&text_exists, child, dir_of(&flat, false), read)?;
                        } else if read(&nested).is_some() {
                            self.load(&nested, child, dir_of(&nested, true), read)?;
                        } else {
                            return Err(PublicApiError::MissingModule {
                                path: file.to_owned(),
                                module: inner.ident.to_string(),
                                tried: format!("{flat}, {nested}"),
                            });
                        }
                    }
                    kept.push(Item::Mod(inner));
                }
                Item::Impl(block) => {
                    if let Some(name) = type_name(&block.self_ty) {
                        self.impls.entry(name).or_default().push(block);
                    }
                }
                other => kept.push(other),
            }
        }
        self.modules.entry(module).or_default().extend(kept);
        Ok(())
    }

    /// Lists the items of module `module` under the public path `at`, with the cfgs on the way.
    fn list_module(
        &self,
        module: &[String],
        at: &[String],
        cfgs: &[String],
        lines: &mut BTreeSet<String>,
        seen: &mut BTreeSet<(Vec<String>, Vec<String>)>,
    ) {
        // A glob or a module re-exported at two paths is listed at each; a cycle stops here.
        if !seen.insert((module.to_vec(), at.to_vec())) {
            return;
        }
        let Some(items) = self.modules.get(module) else {
            return;
        };
        for item in items {
            let (attrs, public) = item_attrs(item);
            if !public || is_hidden(attrs) {
                continue;
            }
            let cfgs = with_cfgs(cfgs, attrs);
            match item {
                // `#[doc(no_inline)]`: shown as a re-export line, its item listed where it is.
                Item::Use(use_) if is_no_inline(attrs) => {
                    let mut names = Vec::new();
                    use_targets(&use_.tree, &mut Vec::new(), &mut names);
                    for (name, target) in names {
                        let mut path = at.to_vec();
                        path.push(name);
                        push(lines, "reexport", &path, target, &cfgs);
                    }
                }
                Item::Use(use_) => {
                    self.list_use(module, &use_.tree, &[], at, &cfgs, lines, seen);
                }
                Item::Mod(inner) => {
                    let mut child = module.to_vec();
                    child.push(inner.ident.to_string());
                    let mut path = at.to_vec();
                    path.push(inner.ident.to_string());
                    push(lines, "mod", &path, String::new(), &cfgs);
                    self.list_module(&child, &path, &cfgs, lines, seen);
                }
                other => self.list_item(other, at, &cfgs, lines),
            }
        }
    }

    /// Lists what a `pub use` in `module` names, at `at` (the using module's public path).
    #[allow(clippy::too_many_arguments)] // one recursive walk over a use tree
    fn list_use(
        &self,
        module: &[String],
        tree: &UseTree,
        prefix: &[String],
        at: &[String],
        cfgs: &[String],
        lines: &mut BTreeSet<String>,
        seen: &mut BTreeSet<(Vec<String>, Vec<String>)>,
    ) {
        match tree {
            UseTree::Path(path) => {
                let mut prefix = prefix.to_vec();
                prefix.push(path.ident.to_string());
                self.list_use(module, &path.tree, &prefix, at, cfgs, lines, seen);
            }
            UseTree::Group(group) => {
                for tree in &group.items {
                    self.list_use(module, tree, prefix, at, cfgs, lines, seen);
                }
            }
            UseTree::Name(name) => {
                let mut target = prefix.to_vec();
                target.push(name.ident.to_string());
                self.list_reexport(
                    module,
                    &target,
                    &name.ident.to_string(),
                    at,
                    cfgs,
                    lines,
                    seen,
                );
            }
            UseTree::Rename(rename) => {
                let mut target = prefix.to_vec();
                target.push(rename.ident.to_string());
                let name = rename.rename.to_string();
                if name != "_" {
                    self.list_reexport(module, &target, &name, at, cfgs, lines, seen);
                }
            }
            UseTree::Glob(_) => match self.resolve_module(module, prefix) {
                Some(target) => self.list_module(&target, at, cfgs, lines, seen),
                None => push(
                    lines,
                    "reexport",
                    at,
                    format!("{}::*", prefix.join("::")),
                    cfgs,
                ),
            },
        }
    }

    #[allow(clippy::too_many_arguments)] // one step of the use-tree walk
    fn list_reexport(
        &self,
        module: &[String],
        target: &[String],
        name: &str,
        at: &[String],
        cfgs: &[String],
        lines: &mut BTreeSet<String>,
        seen: &mut BTreeSet<(Vec<String>, Vec<String>)>,
    ) {
        let mut path = at.to_vec();
        path.push(name.to_owned());
        if let Some(target_module) = self.resolve_module(module, target) {
            push(lines, "mod", &path, String::new(), cfgs);
            self.list_module(&target_module, &path, cfgs, lines, seen);
            return;
        }
        let (parent, last) = target.split_at(target.len().saturating_sub(1));
        let found = self.resolve_module(module, parent).and_then(|parent| {
            let items = self.modules.get(&parent)?;
            let matching: Vec<&Item> = items
                .iter()
                .filter(|item| item_name(item).as_deref() == last.first().map(String::as_str))
                // `pub use jiff;` names another crate, not an item here.
                .filter(|item| !matches!(item, Item::Use(use_) if matches!(use_.tree, UseTree::Name(_))))
                .collect();
            (!matching.is_empty()).then_some(matching)
        });
        match found {
            Some(items) => {
                for item in items {
                    let (attrs, _) = item_attrs(item);
                    if is_hidden(attrs) {
                        continue;
                    }
                    let cfgs = with_cfgs(cfgs, attrs);
                    match item {
                        // A re-export of a re-export: follow it from where it is written.
                        Item::Use(use_) => {
                            let parent = self.resolve_module(module, parent).unwrap_or_default();
                            let mut key = path.clone();
                            key.push("#use".to_owned());
                            if seen.insert((parent.clone(), key)) {
                                self.list_use(&parent, &use_.tree, &[], at, &cfgs, lines, seen);
                            }
                        }
                        other => self.list_item_as(other, at, name, &cfgs, lines),
                    }
                }
            }
            // Another crate's item (or one this walk cannot place): named as written.
            None => push(lines, "reexport", &path, target.join("::"), cfgs),
        }
    }

    /// The module `path` names, written in module `from`, if it is one of this crate's.
    fn resolve_module(&self, from: &[String], path: &[String]) -> Option<Vec<String>> {
        let mut current: Vec<String> = match path.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self" | "super") => from.to_vec(),
            Some(_) => {
                // A path relative to `from`, or (edition 2018+) to the crate root when `from`
                // has a `use` or `mod` by that name at the root only.
                let relative: Vec<String> = from.iter().chain(path.iter()).cloned().collect();
                if self.modules.contains_key(&relative) {
                    return Some(relative);
                }
                // A name `from` imports (`use crate::metrics::{self, …}` then `metrics::x`).
                return self.resolve_imported(from, path);
            }
            None => return Some(from.to_vec()),
        };
        for segment in path {
            match segment.as_str() {
                "crate" | "self" => {}
                "super" => {
                    current.pop();
                }
                name => current.push(name.to_owned()),
            }
        }
        self.modules.contains_key(&current).then_some(current)
    }

    /// A path whose first segment is a name `from` brings in with a `use` (public or not).
    fn resolve_imported(&self, from: &[String], path: &[String]) -> Option<Vec<String>> {
        let first = path.first()?;
        for item in self.modules.get(from)? {
            let Item::Use(use_) = item else { continue };
            let mut found = None;
            imported(&use_.tree, &mut Vec::new(), first, &mut found);
            if let Some(mut target) = found {
                target.extend(path[1..].iter().cloned());
                if target.first().map(String::as_str) == Some(first.as_str()) {
                    return None; // an extern crate's name
                }
                return self.resolve_module(from, &target);
            }
        }
        None
    }

    fn list_item(&self, item: &Item, at: &[String], cfgs: &[String], lines: &mut BTreeSet<String>) {
        if let Some(name) = item_name(item) {
            self.list_item_as(item, at, &name, cfgs, lines);
        }
    }

    /// Lists `item` at `at::name`, with its fields, variants, methods and trait impls.
    fn list_item_as(
        &self,
        item: &Item,
        at: &[String],
        name: &str,
        cfgs: &[String],
        lines: &mut BTreeSet<String>,
    ) {
        let mut path = at.to_vec();
        path.push(name.to_owned());
        match item {
            Item::Fn(function) => {
                push(lines, "fn", &path, signature(&function.sig), cfgs);
            }
            Item::Struct(struct_) => {
                push(lines, "struct", &path, generics(&struct_.generics), cfgs);
                list_fields(&struct_.fields, &path, cfgs, lines);
                self.list_impls(&struct_.ident.to_string(), &path, cfgs, lines);
            }
            Item::Enum(enum_) => {
                push(lines, "enum", &path, generics(&enum_.generics), cfgs);
                for variant in &enum_.variants {
                    if is_hidden(&variant.attrs) {
                        continue;
                    }
                    let mut variant_path = path.clone();
                    variant_path.push(variant.ident.to_string());
                    let fields = variant_fields(&variant.fields);
                    push(lines, "variant", &variant_path, fields, cfgs);
                }
                self.list_impls(&enum_.ident.to_string(), &path, cfgs, lines);
            }
            Item::Trait(trait_) => {
                let mut header = generics(&trait_.generics);
                if !trait_.supertraits.is_empty() {
                    header.push_str(": ");
                    header.push_str(&compact(trait_.supertraits.to_token_stream()));
                }
                push(lines, "trait", &path, header, cfgs);
                for trait_item in &trait_.items {
                    let mut item_path = path.clone();
                    match trait_item {
                        TraitItem::Fn(method) if !is_hidden(&method.attrs) => {
                            item_path.push(method.sig.ident.to_string());
                            push(lines, "fn", &item_path, signature(&method.sig), cfgs);
                        }
                        TraitItem::Type(assoc) if !is_hidden(&assoc.attrs) => {
                            item_path.push(assoc.ident.to_string());
                            push(
                                lines,
                                "type",
                                &item_path,
                                compact(assoc.bounds.to_token_stream()),
                                cfgs,
                            );
                        }
                        TraitItem::Const(constant) if !is_hidden(&constant.attrs) => {
                            item_path.push(constant.ident.to_string());
                            push(
                                lines,
                                "const",
                                &item_path,
                                compact(constant.ty.to_token_stream()),
                                cfgs,
                            );
                        }
                        _ => {}
                    }
                }
            }
            Item::Const(constant) => {
                push(
                    lines,
                    "const",
                    &path,
                    compact(constant.ty.to_token_stream()),
                    cfgs,
                );
            }
            Item::Static(static_) => {
                push(
                    lines,
                    "static",
                    &path,
                    compact(static_.ty.to_token_stream()),
                    cfgs,
                );
            }
            Item::Type(alias) => {
                let signature = format!(
                    "{}= {}",
                    generics(&alias.generics).trim_end().to_owned() + " ",
                    compact(alias.ty.to_token_stream())
                );
                // The aliased type's methods are listed under that type, once.
                push(
                    lines,
                    "type",
                    &path,
                    signature.trim_start().to_owned(),
                    cfgs,
                );
            }
            Item::Macro(macro_) => {
                push(lines, "macro", &path, String::new(), cfgs);
                let _ = macro_;
            }
            Item::Union(union_) => {
                push(lines, "union", &path, generics(&union_.generics), cfgs);
            }
            _ => {}
        }
    }

    /// The public, shown methods of every inherent impl of type `type_name`, and its trait impls.
    fn list_impls(
        &self,
        type_name: &str,
        path: &[String],
        cfgs: &[String],
        lines: &mut BTreeSet<String>,
    ) {
        for block in self.impls.get(type_name).into_iter().flatten() {
            if is_hidden(&block.attrs) {
                continue;
            }
            let cfgs = with_cfgs(cfgs, &block.attrs);
            let self_ty = compact(block.self_ty.to_token_stream());
            let bounds = compact(block.generics.to_token_stream());
            let where_ = block
                .generics
                .where_clause
                .as_ref()
                .map(|clause| format!(" {}", compact(clause.to_token_stream())))
                .unwrap_or_default();
            if let Some((_, trait_, _)) = &block.trait_ {
                let header = format!(
                    "{bounds} {} for {self_ty}{where_}",
                    compact(trait_.to_token_stream())
                );
                let header = header.trim_start().to_owned();
                push(lines, "impl", path, header, &cfgs);
                continue;
            }
            for impl_item in &block.items {
                match impl_item {
                    ImplItem::Fn(method)
                        if matches!(method.vis, Visibility::Public(_))
                            && !is_hidden(&method.attrs) =>
                    {
                        let mut method_path = path.to_vec();
                        method_path.push(method.sig.ident.to_string());
                        let cfgs = with_cfgs(&cfgs, &method.attrs);
                        let signature = format!("{}{where_}", signature(&method.sig));
                        let on = if bounds.is_empty() {
                            String::new()
                        } else {
                            format!(" (on impl{bounds} {self_ty})")
                        };
                        push(lines, "fn", &method_path, format!("{signature}{on}"), &cfgs);
                    }
                    ImplItem::Const(constant)
                        if matches!(constant.vis, Visibility::Public(_))
                            && !is_hidden(&constant.attrs) =>
                    {
                        let mut const_path = path.to_vec();
                        const_path.push(constant.ident.to_string());
                        push(
                            lines,
                            "const",
                            &const_path,
                            compact(constant.ty.to_token_stream()),
                            &cfgs,
                        );
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Records into `found` what `name` is brought in as by a use tree (its full path).
fn imported(tree: &UseTree, prefix: &mut Vec<String>, name: &str, found: &mut Option<Vec<String>>) {
    match tree {
        UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            imported(&path.tree, prefix, name, found);
            prefix.pop();
        }
        UseTree::Group(group) => {
            for tree in &group.items {
                imported(tree, prefix, name, found);
            }
        }
        UseTree::Name(use_name) => {
            if use_name.ident == "self" && prefix.last().map(String::as_str) == Some(name) {
                *found = Some(prefix.clone());
            } else if use_name.ident == name {
                let mut path = prefix.clone();
                path.push(name.to_owned());
                *found = Some(path);
            }
        }
        UseTree::Rename(rename) => {
            if rename.rename == name {
                let mut path = prefix.clone();
                if rename.ident != "self" {
                    path.push(rename.ident.to_string());
                }
                *found = Some(path);
            }
        }
        UseTree::Glob(_) => {}
    }
}

fn push(
    lines: &mut BTreeSet<String>,
    kind: &str,
    path: &[String],
    signature: String,
    cfgs: &[String],
) {
    let mut line = format!("{kind} {}", path.join("::"));
    if !signature.is_empty() {
        line.push(' ');
        line.push_str(&signature);
    }
    for cfg in cfgs {
        line.push_str(" #[");
        line.push_str(cfg);
        line.push(']');
    }
    lines.insert(line);
}

fn list_fields(fields: &Fields, path: &[String], cfgs: &[String], lines: &mut BTreeSet<String>) {
    for (index, field) in fields.iter().enumerate() {
        if !matches!(field.vis, Visibility::Public(_)) || is_hidden(&field.attrs) {
            continue;
        }
        let mut field_path = path.to_vec();
        field_path.push(
            field
                .ident
                .as_ref()
                .map_or_else(|| index.to_string(), ToString::to_string),
        );
        push(
            lines,
            "field",
            &field_path,
            compact(field.ty.to_token_stream()),
            cfgs,
        );
    }
}

/// A variant's fields without their attributes and doc comments: `(u8, String)`, `{ a: u8 }`.
fn variant_fields(fields: &Fields) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|field| match &field.ident {
            Some(name) => format!("{name}: {}", compact(field.ty.to_token_stream())),
            None => compact(field.ty.to_token_stream()),
        })
        .collect();
    match fields {
        Fields::Named(_) => format!("{{ {} }}", parts.join(", ")),
        Fields::Unnamed(_) => format!("({})", parts.join(", ")),
        Fields::Unit => String::new(),
    }
}

/// A function's signature without its name and attributes: `async <T>(&self, x: T) -> U`.
fn signature(sig: &syn::Signature) -> String {
    let mut text = String::new();
    for (present, word) in [
        (sig.constness.is_some(), "const "),
        (sig.asyncness.is_some(), "async "),
        (sig.unsafety.is_some(), "unsafe "),
    ] {
        if present {
            text.push_str(word);
        }
    }
    text.push_str(&compact(sig.generics.to_token_stream()));
    let inputs: Vec<String> = sig
        .inputs
        .iter()
        .map(|input| match input {
            syn::FnArg::Receiver(receiver) => {
                let reference =
                    receiver
                        .reference
                        .as_ref()
                        .map_or(String::new(), |(_, lifetime)| {
                            lifetime
                                .as_ref()
                                .map_or("&".to_owned(), |lifetime| format!("&{lifetime} "))
                        });
                let mutability = if receiver.mutability.is_some() {
                    "mut "
                } else {
                    ""
                };
                format!("{reference}{mutability}self")
            }
            syn::FnArg::Typed(typed) => format!(
                "{}: {}",
                compact(typed.pat.to_token_stream()),
                compact(typed.ty.to_token_stream())
            ),
        })
        .collect();
    text.push('(');
    text.push_str(&inputs.join(", "));
    text.push(')');
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        text.push_str(" -> ");
        text.push_str(&compact(ty.to_token_stream()));
    }
    if let Some(clause) = &sig.generics.where_clause {
        text.push(' ');
        text.push_str(&compact(clause.to_token_stream()));
    }
    text
}

fn generics(generics: &syn::Generics) -> String {
    let mut text = compact(generics.to_token_stream());
    if let Some(clause) = &generics.where_clause {
        text.push(' ');
        text.push_str(&compact(clause.to_token_stream()));
    }
    text
}

/// The last identifier of a path type (`Step<'a>` → `Step`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string()),
        _ => None,
    }
}

fn item_name(item: &Item) -> Option<String> {
    Some(match item {
        Item::Fn(function) => function.sig.ident.to_string(),
        Item::Struct(struct_) => struct_.ident.to_string(),
        Item::Enum(enum_) => enum_.ident.to_string(),
        Item::Trait(trait_) => trait_.ident.to_string(),
        Item::Const(constant) => constant.ident.to_string(),
        Item::Static(static_) => static_.ident.to_string(),
        Item::Type(alias) => alias.ident.to_string(),
        Item::Union(union_) => union_.ident.to_string(),
        Item::Mod(module) => module.ident.to_string(),
        Item::Macro(macro_) => macro_.ident.as_ref()?.to_string(),
        Item::Use(use_) => return use_name(&use_.tree),
        _ => return None,
    })
}

/// The one name a simple `use` brings in (`pub use a::b as c;` → `c`).
fn use_name(tree: &UseTree) -> Option<String> {
    match tree {
        UseTree::Path(path) => use_name(&path.tree),
        UseTree::Name(name) => Some(name.ident.to_string()),
        UseTree::Rename(rename) => Some(rename.rename.to_string()),
        _ => None,
    }
}

/// An item's attributes, and whether it is `pub` (a `#[macro_export]` macro counts).
fn item_attrs(item: &Item) -> (&[Attribute], bool) {
    let public = |vis: &Visibility| matches!(vis, Visibility::Public(_));
    match item {
        Item::Fn(x) => (&x.attrs, public(&x.vis)),
        Item::Struct(x) => (&x.attrs, public(&x.vis)),
        Item::Enum(x) => (&x.attrs, public(&x.vis)),
        Item::Trait(x) => (&x.attrs, public(&x.vis)),
        Item::Const(x) => (&x.attrs, public(&x.vis)),
        Item::Static(x) => (&x.attrs, public(&x.vis)),
        Item::Type(x) => (&x.attrs, public(&x.vis)),
        Item::Union(x) => (&x.attrs, public(&x.vis)),
        Item::Mod(x) => (&x.attrs, public(&x.vis)),
        Item::Use(x) => (&x.attrs, public(&x.vis)),
        Item::Macro(x) => {
            let exported = x
                .attrs
                .iter()
                .any(|attr| attr.path().is_ident("macro_export"));
            (&x.attrs, exported)
        }
        _ => (&[], false),
    }
}

/// Each name a use tree brings in, with the path it names.
fn use_targets(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, String)>) {
    match tree {
        UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_targets(&path.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Group(group) => {
            for tree in &group.items {
                use_targets(tree, prefix, out);
            }
        }
        UseTree::Name(name) => {
            let target = prefix
                .iter()
                .cloned()
                .chain([name.ident.to_string()])
                .collect::<Vec<_>>();
            out.push((name.ident.to_string(), target.join("::")));
        }
        UseTree::Rename(rename) => {
            let target = prefix
                .iter()
                .cloned()
                .chain([rename.ident.to_string()])
                .collect::<Vec<_>>();
            out.push((rename.rename.to_string(), target.join("::")));
        }
        UseTree::Glob(_) => out.push(("*".to_owned(), prefix.join("::"))),
    }
}

/// `#[doc(no_inline)]`: rustdoc shows the `use` line, not the item again.
fn is_no_inline(attrs: &[Attribute]) -> bool {
    has_doc_word(attrs, "no_inline")
}

/// `#[doc(hidden)]`, alone or among other `doc` arguments.
fn is_hidden(attrs: &[Attribute]) -> bool {
    has_doc_word(attrs, "hidden")
}

fn has_doc_word(attrs: &[Attribute], word: &str) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("doc")
            && matches!(&attr.meta, syn::Meta::List(list) if list.tokens.to_string().split(',').any(|part| part.trim() == word))
    })
}

/// `#[cfg(test)]`: test code, never part of the API.
fn is_cfg_test(attr: &Attribute) -> bool {
    attr.path().is_ident("cfg") && compact(attr.meta.to_token_stream()) == "cfg(test)"
}

fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(pair) if pair.path.is_ident("path") => match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    })
}

/// `cfgs` plus the `#[cfg(...)]`s in `attrs`, each as its text (`cfg(feature = "client")`).
fn with_cfgs(cfgs: &[String], attrs: &[Attribute]) -> Vec<String> {
    let mut all = cfgs.to_vec();
    for attr in attrs {
        if attr.path().is_ident("cfg") {
            let text = compact(attr.meta.to_token_stream()).replace("= \"", " = \"");
            if !all.contains(&text) {
                all.push(text);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(files: &[(&str, &str)]) -> String {
        let files: BTreeMap<&str, &str> = files.iter().copied().collect();
        list_public_api("src/lib.rs", &mut |path| {
            files.get(path).map(|text| (*text).to_owned())
        })
        .unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn follows_modules_reexports_and_skips_hidden() {
        let listing = list(&[
            (
                "src/lib.rs",
                "mod inner;\npub mod open;\npub use inner::{Shown, Hidden as Renamed};\n\
                 #[doc(hidden)] pub use inner::Shown as Secret;\n#[cfg(feature = \"x\")] pub use open::*;\n\
                 pub use jiff;\n",
            ),
            (
                "src/inner.rs",
                "pub struct Shown { pub a: u8, b: u8 }\nimpl Shown { pub fn get(&self) -> u8 { 0 } \
                 fn private(&self) {} #[doc(hidden)] pub fn plumbing(&self) {} }\n\
                 impl Clone for Shown { fn clone(&self) -> Self { todo!() } }\n\
                 #[doc(hidden)] pub struct Hidden;\n",
            ),
            (
                "src/open.rs",
                "pub enum Kind { A, B(u8) }\npub(crate) fn not_public() {}\n",
            ),
        ]);
        let lines: Vec<&str> = listing
            .lines()
            .filter(|line| !line.starts_with('#'))
            .collect();
        assert_eq!(
            lines,
            [
                "enum Kind #[cfg(feature = \"x\")]",
                "enum open::Kind",
                "field Shown::a u8",
                "fn Shown::get (&self) -> u8",
                "impl Shown Clone for Shown",
                "mod open",
                "reexport jiff jiff",
                "struct Shown",
                "variant Kind::A #[cfg(feature = \"x\")]",
                "variant Kind::B (u8) #[cfg(feature = \"x\")]",
                "variant open::Kind::A",
                "variant open::Kind::B (u8)",
            ]
        );
    }

    #[test]
    fn a_missing_module_file_is_an_error() {
        let files: BTreeMap<&str, &str> = [("src/lib.rs", "mod gone;")].into_iter().collect();
        let error = list_public_api("src/lib.rs", &mut |path| {
            files.get(path).map(|t| (*t).to_owned())
        });
        assert!(
            matches!(&error, Err(PublicApiError::MissingModule { module, .. }) if module == "gone"),
            "{error:?}"
        );
    }
}
