//! Cursor pagination as streams: every page of a paginated operation, or every item across
//! them, fetched as the stream is read — ending when the server says there is no more, and
//! refusing a server that hands back a cursor it already gave (which would loop forever).

use std::collections::HashSet;
use std::future::Future;

pub use futures_core::Stream;
use futures_util::{TryStreamExt as _, stream};

use crate::Error;
use crate::server_text::ServerText;

/// What one page says about the next: its cursor, and whether there is more.
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
pub fn pages<P, F, Fut>(
    fetch: F,
    info: fn(&P) -> PageInfo,
) -> impl Stream<Item = Result<P, Error>> + Send + 'static
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
    stream::unfold(state, move |mut state| async move {
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
    })
}

/// Every item of every page of `pages`, in order (`items` takes a page's items out).
pub fn items<P, T>(
    pages: impl Stream<Item = Result<P, Error>> + Send + 'static,
    items: fn(P) -> Vec<T>,
) -> impl Stream<Item = Result<T, Error>> + Send + 'static
where
    P: Send + 'static,
    T: Send + 'static,
{
    pages
        .map_ok(move |page| stream::iter(items(page).into_iter().map(Ok)))
        .try_flatten()
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures_util::StreamExt as _;

    use super::*;

    /// Pages of numbers; page `i` says `infos[i]` about the next.
    fn serve(
        infos: Vec<PageInfo>,
        asked: Arc<Mutex<Vec<Option<String>>>>,
    ) -> impl Stream<Item = Result<(Vec<u32>, PageInfo), Error>> + Send + 'static {
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
    fn an_error_ends_the_stream() {
        let results: Vec<_> = block_on(serve(vec![more("a")], Arc::default()).collect::<Vec<_>>());
        assert_eq!(results.len(), 2);
        assert!(matches!(results[1], Err(Error::InvalidRequest(_))));
    }
}
