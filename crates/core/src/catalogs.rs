//! The model catalogs every picker reads: the public catalog and the priced lists (every model,
//! images, videos), each read from the service and kept in the library per connection. The public
//! catalog is read conditionally with the kept ETag (a 304 keeps the copy and marks it current);
//! when the service cannot be reached, the kept copy is shown, marked offline with its time.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use specdesk_client::{Client, Conditional};
use specdesk_types::{ModelList, PublicCatalog};

use crate::ipc_error::IpcError;
use crate::library::{Library, StoredCatalog};
use crate::specs::unreachable;
use crate::spend::{PriceList, Prices};

/// A catalog as shown: the list, when the copy shown was read from the service, and whether it
/// is a copy kept on this computer because the service could not be reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CatalogView<T> {
    pub list: T,
    /// When the service last gave (or confirmed) this copy (RFC 3339); `null` when it could not
    /// be kept.
    pub cached_at: Option<String>,
    /// True when the service could not be reached and this is the copy kept from before.
    pub offline: bool,
}

/// The library's name of the public catalog.
const PUBLIC: &str = "public";

/// The library's name of a priced list.
fn list_name(list: PriceList) -> &'static str {
    match list {
        PriceList::Models => "models",
        PriceList::Images => "images",
        PriceList::Videos => "videos",
    }
}

fn base_url(client: &Client) -> String {
    client.config().base_url().to_string()
}

/// The public catalog of connection `profile_id` (read with `client`).
pub async fn public_catalog(
    library: &Library,
    profile_id: &str,
    client: &Client,
) -> Result<CatalogView<PublicCatalog>, IpcError> {
    let base = base_url(client);
    let kept = library.catalog(profile_id, PUBLIC, &base)?;
    // A copy that no longer reads back (say, written by another version) is read again in full.
    let kept = kept.and_then(|k| Some((parse::<PublicCatalog>(&k.body_json).ok()?, k)));
    let etag = kept.as_ref().and_then(|(_, k)| k.etag.as_deref());
    let gateway = client.gateway();
    let answer = match gateway.public_catalog_since(etag).await {
        // Asked without an ETag, the service has no reason to say 304; ask again in full.
        Ok(Conditional::NotModified) if kept.is_none() => gateway.public_catalog_since(None).await,
        other => other,
    };
    match answer {
        Ok(Conditional::Changed { value, etag }) => {
            let cached_at = keep(library, profile_id, PUBLIC, &base, etag.as_deref(), &value);
            Ok(CatalogView {
                list: value,
                cached_at,
                offline: false,
            })
        }
        Ok(Conditional::NotModified) => {
            let (list, k) = kept.ok_or_else(|| {
                IpcError::internal(
                    "The service said the catalog had not changed, but none is kept.",
                )
            })?;
            let cached_at = library.touch_catalog(profile_id, PUBLIC)?;
            Ok(CatalogView {
                list,
                cached_at: cached_at.or(Some(k.fetched_at)),
                offline: false,
            })
        }
        Err(e) if unreachable(&e) => match kept {
            Some((list, k)) => Ok(offline(list, k)),
            None => Err(IpcError::from(&e)),
        },
        Err(e) => Err(IpcError::from(&e)),
    }
}

/// Priced list `list` of connection `profile_id` (read with `client`); its prices are kept in
/// `prices` for spend estimates.
pub async fn model_list(
    library: &Library,
    prices: &Prices,
    profile_id: &str,
    client: &Client,
    list: PriceList,
) -> Result<CatalogView<ModelList>, IpcError> {
    let base = base_url(client);
    let name = list_name(list);
    let gateway = client.gateway();
    let read = match list {
        PriceList::Models => gateway.models().await,
        PriceList::Images => gateway.image_models().await,
        PriceList::Videos => gateway.video_models().await,
    };
    match read {
        Ok(models) => {
            let models = models.value;
            prices.remember(profile_id, client, list, &models);
            let cached_at = keep(library, profile_id, name, &base, None, &models);
            Ok(CatalogView {
                list: models,
                cached_at,
                offline: false,
            })
        }
        Err(e) if unreachable(&e) => {
            let kept = library.catalog(profile_id, name, &base)?;
            let Some((models, k)) =
                kept.and_then(|k| Some((parse::<ModelList>(&k.body_json).ok()?, k)))
            else {
                return Err(IpcError::from(&e));
            };
            prices.remember_stale(profile_id, client, list, &models);
            Ok(offline(models, k))
        }
        Err(e) => Err(IpcError::from(&e)),
    }
}

fn parse<T: DeserializeOwned>(json: &str) -> serde_json::Result<T> {
    serde_json::from_str(json)
}

fn offline<T>(list: T, kept: StoredCatalog) -> CatalogView<T> {
    CatalogView {
        list,
        cached_at: Some(kept.fetched_at),
        offline: true,
    }
}

/// Keeps `value` in the library; when it cannot be, the list is still shown (with no time).
fn keep<T: Serialize>(
    library: &Library,
    profile_id: &str,
    list: &str,
    base_url: &str,
    etag: Option<&str>,
    value: &T,
) -> Option<String> {
    let saved = serde_json::to_string(value)
        .map_err(IpcError::storage)
        .and_then(|json| library.save_catalog(profile_id, list, base_url, etag, &json));
    match saved {
        Ok(at) => Some(at),
        Err(e) => {
            tracing::warn!(
                connection = profile_id,
                list,
                "a model catalog could not be kept for offline use: {}",
                e.message
            );
            None
        }
    }
}
