//! Cursor pagination as streams: every page of a paginated operation, or every item across
//! them, fetched as the stream is read — ending when the server says there is no more, and
//! refusing a server that hands back a cursor it already gave (which would loop forever).
//!
//! A [`PageStream`] is read with its own [`next`](PageStream::next),
//! [`try_collect`](PageStream::try_collect) and [`collect`](PageStream::collect) (as
//! aws-sdk-rust's `PaginationStream` is), so a user needs no `futures` crate and no `pin!`; it is
//! also a [`Stream`] for the `StreamExt` combinators.

use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub use futures_core::Stream;
use futures_util::{StreamExt as _, TryStreamExt as _, stream};

use crate::Error;
use crate::server_text::ServerText;

/// The pages, or the items, of a paginated operation, each `Result<T, Error>`, fetched as they
/// are read.
///
/// ```no_run
/// # async fn run(client: baseten_api::Client) -> Result<(), baseten_api::Error> {
/// use baseten_api::operations::GetAuditLogsQuery;
///
/// let query = GetAuditLogsQuery::default();
/// // One at a time: `Option<Result<AuditLogEntryV1, Error>>`.
/// let mut entries = client.get_audit_logs_items(&query);
/// while let Some(entry) = entries.next().await {
///     println!("{:?}", entry?.event_type);
/// }
/// // Or all of them, or the first error.
/// let pages: Vec<_> = client.get_audit_logs_pages(&query).try_collect().await?;
/// println!("{} pages", pages.len());
/// # Ok(()) }
/// ```
#[must_use = "a page stream fetches nothing until it is read"]
pub struct PageStream<T> {
    inner: Pin<Box<dyn Stream<Item = Result<T, Error>> + Send>>,
}

impl<T> PageStream<T> {
    /// Wraps a stream (the generated code's `pages` and `items` make these).
    #[doc(hidden)]
    pub fn new(stream: impl Stream<Item = Result<T, Error>> + Send + 'static) -> Self {
        Self {
            inner: Box::pin(stream),
        }
    }

    /// The next page or item, fetching a page if need be; `None` after the last one or after
    /// an error.
    pub async fn next(&mut self) -> Option<Result<T, Error>> {
        self.inner.next().await
    }

    /// Every page or item, in order, into `C` (a `Vec<T>`, say), or the first error (nothing
    /// after it is fetched). The same signature as `TryStreamExt::try_collect`.
    ///
    /// # Errors
    ///
    /// The first error the stream yields: a failed request, or
    /// [`Error::PaginationStalled`] for a cursor the server repeats.
    pub async fn try_collect<C: Default + Extend<T>>(self) -> Result<C, Error> {
        self.inner.try_collect().await
    }

    /// Every result into `C` (for instance `Vec<Result<T, Error>>`); the stream ends after an
    /// error, so an error is the last element.
    pub async fn collect<C: Default + Extend<Result<T, Error>>>(self) -> C {
        self.inner.collect().await
    }
}

impl<T> Stream for PageStream<T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<T> fmt::Debug for PageStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageStream").finish_non_exhaustive()
    }
}

/// What one page says about the next: its cursor, and whether there is more.
#[doc(hidden)] // the generated code's
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageInfo {
    /// The cursor to send for the next page; `None` when there is none.
    pub cursor: Option<String>,
    /// Whether more items exist after this page.
    pub has_more: bool,
}

/// The pages `fetch` returns, starting without a cursor and following each page's
/// [`PageInfo`] (read by `info`) until it has no more.
///
/// The stream ends after a page without more; an error from `fetch` is yielded once and ends
/// it. A page that says there is more but names no cursor, or names a cursor already sent, is
/// [`Error::PaginationStalled`] instead of another request.
#[doc(hidden)] // the generated code's
pub fn pages<P, F, Fut>(fetch: F, info: fn(&P) -> PageInfo) -> PageStream<P>
where
    P: Send + 'static,
    F: FnMut(Option<String>) -> Fut + Send + 'static,
    Fut: Future<Output = Result<P, Error>> + Send + 'static,
{
    struct State<F> {
        fetch: F,
        next: Option<Option<String>>,
        sent: HashSet<String>,
    }
    let state = State {
        fetch,
        next: Some(None),
        sent: HashSet::new(),
    };
    PageStream::new(stream::unfold(state, move |mut state| async move {
        let cursor = state.next.take()?;
        let page = match (state.fetch)(cursor).await {
            Ok(page) => page,
            Err(error) => return Some((Err(error), state)),
        };
        let PageInfo { cursor, has_more } = info(&page);
        if has_more {
            match cursor {
                Some(cursor) if state.sent.insert(cursor.clone()) => {
                    state.next = Some(Some(cursor));
                }
                cursor => {
                    let error = Error::PaginationStalled {
                        cursor: cursor.map(ServerText::new),
                    };
                    return Some((Err(error), state));
                }
            }
        }
        Some((Ok(page), state))
    }))
}

/// Every item of every page of `pages`, in order (`items` takes a page's items out).
#[doc(hidden)] // the generated code's
pub fn items<P, T>(
    pages: impl Stream<Item = Result<P, Error>> + Send + 'static,
    items: fn(P) -> Vec<T>,
) -> PageStream<T>
where
    P: Send + 'static,
    T: Send + 'static,
{
    PageStream::new(
        pages
            .map_ok(move |page| stream::iter(items(page).into_iter().map(Ok)))
            .try_flatten(),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Pages of numbers; page `i` says `infos[i]` about the next.
    fn serve(
        infos: Vec<PageInfo>,
        asked: Arc<Mutex<Vec<Option<String>>>>,
    ) -> PageStream<(Vec<u32>, PageInfo)> {
        let mut index = 0;
        pages(
            move |cursor| {
                if let Ok(mut asked) = asked.lock() {
                    asked.push(cursor);
                }
                let page = infos.get(index).cloned();
                let numbers = vec![index as u32 * 10, index as u32 * 10 + 1];
                index += 1;
                async move {
                    page.map(|info| (numbers, info))
                        .ok_or_else(|| Error::InvalidRequest("asked past the end".into()))
                }
            },
            |page: &(Vec<u32>, PageInfo)| page.1.clone(),
        )
    }

    fn more(cursor: &str) -> PageInfo {
        PageInfo {
            cursor: Some(cursor.to_owned()),
            has_more: true,
        }
    }

    const LAST: PageInfo = PageInfo {
        cursor: None,
        has_more: false,
    };

    fn block_on<F: Future>(future: F) -> F::Output {
        match tokio::runtime::Builder::new_current_thread().build() {
            Ok(runtime) => runtime.block_on(future),
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn three_pages_give_every_item_and_stop() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let pages = serve(vec![more("a"), more("b"), LAST], asked.clone());
        let all: Result<Vec<u32>, Error> =
            block_on(items(pages, |page: (Vec<u32>, PageInfo)| page.0).try_collect());
        assert_eq!(all.ok(), Some(vec![0, 1, 10, 11, 20, 21]));
        let asked = asked.lock().map(|a| a.clone()).unwrap_or_default();
        assert_eq!(asked, [None, Some("a".to_owned()), Some("b".to_owned())]);
    }

    #[test]
    fn a_repeated_or_missing_cursor_is_an_error_not_a_loop() {
        for (infos, stalled) in [
            (vec![more("a"), more("b"), more("a"), LAST], Some("a")),
            (vec![more("a"), more("a")], Some("a")),
            (
                vec![PageInfo {
                    cursor: None,
                    has_more: true,
                }],
                None,
            ),
        ] {
            let count = infos.len();
            let results: Vec<_> = block_on(serve(infos, Arc::default()).collect::<Vec<_>>());
            assert!(results.len() <= count, "{results:?}");
            let last = results.last();
            assert!(
                matches!(last, Some(Err(Error::PaginationStalled { cursor }))
                    if cursor.as_deref() == stalled),
                "{last:?}"
            );
            assert!(results[..results.len() - 1].iter().all(Result::is_ok));
        }
    }

    #[test]
    fn next_reads_page_by_page_without_futures_traits() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let mut stream = serve(vec![more("a"), LAST], Arc::clone(&asked));
        let first = block_on(stream.next()).map(|page| page.map(|page| page.0));
        assert!(
            matches!(first, Some(Ok(ref numbers)) if numbers == &[0, 1]),
            "{first:?}"
        );
        // Only the first page has been fetched so far.
        assert_eq!(asked.lock().map(|a| a.len()).unwrap_or(0), 1);
        let second = block_on(stream.next()).map(|page| page.map(|page| page.0));
        assert!(
            matches!(second, Some(Ok(ref numbers)) if numbers == &[10, 11]),
            "{second:?}"
        );
        assert!(block_on(stream.next()).is_none());
        assert_eq!(format!("{stream:?}"), "PageStream { .. }");
    }

    #[test]
    fn an_error_ends_the_stream() {
        let results: Vec<_> = block_on(serve(vec![more("a")], Arc::default()).collect::<Vec<_>>());
        assert_eq!(results.len(), 2);
        assert!(matches!(results[1], Err(Error::InvalidRequest(_))));
    }
}
