//! The job ledger as the UI lists it: one connection's jobs, of one kind or of every kind.

use crate::ipc_error::IpcError;
use crate::library::{Job, JobKind, Library};

/// Every kind of job, for a list that shows them all.
const ALL_KINDS: [JobKind; 3] = [JobKind::Spec, JobKind::Batch, JobKind::Video];

/// The newest jobs of `profile_id` (another connection's ids mean nothing to this one), newest
/// first: of `kind` only when given, else of every kind merged. `limit` is kept to 1..=500.
pub fn recent_jobs(
    library: &Library,
    profile_id: &str,
    kind: Option<JobKind>,
    limit: u32,
) -> Result<Vec<Job>, IpcError> {
    let limit = limit.clamp(1, 500);
    let kinds = match kind {
        Some(k) => vec![k],
        None => ALL_KINDS.to_vec(),
    };
    let mut jobs = Vec::new();
    for k in kinds {
        jobs.extend(library.recent_jobs_of(profile_id, k, limit)?);
    }
    jobs.sort_by_key(|j| std::cmp::Reverse(j.id));
    jobs.truncate(limit as usize);
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(library: &Library, kind: JobKind, profile_id: &str) -> i64 {
        library
            .insert_job(kind, profile_id, None, &serde_json::json!({}))
            .unwrap()
            .id
    }

    fn ids(jobs: &[Job]) -> Vec<i64> {
        jobs.iter().map(|j| j.id).collect()
    }

    #[test]
    fn every_kind_is_merged_newest_first_and_cut_to_the_limit() {
        let library = Library::in_memory().unwrap();
        let spec = add(&library, JobKind::Spec, "work");
        let batch = add(&library, JobKind::Batch, "work");
        let other = add(&library, JobKind::Spec, "home");
        let video = add(&library, JobKind::Video, "work");
        let spec2 = add(&library, JobKind::Spec, "work");

        let all = recent_jobs(&library, "work", None, 50).unwrap();
        assert_eq!(ids(&all), [spec2, video, batch, spec]);
        assert!(!ids(&all).contains(&other));

        let newest = recent_jobs(&library, "work", None, 2).unwrap();
        assert_eq!(ids(&newest), [spec2, video]);

        let specs = recent_jobs(&library, "work", Some(JobKind::Spec), 50).unwrap();
        assert_eq!(ids(&specs), [spec2, spec]);

        let home = recent_jobs(&library, "home", None, 50).unwrap();
        assert_eq!(ids(&home), [other]);
    }

    #[test]
    fn the_limit_is_at_least_one_and_at_most_five_hundred() {
        let library = Library::in_memory().unwrap();
        let first = add(&library, JobKind::Batch, "work");
        let second = add(&library, JobKind::Video, "work");
        assert_eq!(
            ids(&recent_jobs(&library, "work", None, 0).unwrap()),
            [second]
        );
        for _ in 0..600 {
            add(&library, JobKind::Spec, "work");
        }
        let many = recent_jobs(&library, "work", None, 10_000).unwrap();
        assert_eq!(many.len(), 500);
        assert!(!ids(&many).contains(&first));
        assert!(many.windows(2).all(|w| w[0].id > w[1].id), "newest first");
    }
}
