//! N embedded phones of this process. Each is booted once, when first opened, and every episode
//! starts by loading its boot snapshot (`Episode::start`), which costs about a millisecond where a
//! boot costs tens; nothing can lose one, so a heartbeat always succeeds.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use super::{Endpoint, FleetError, Grant, Source};

pub struct Embedded {
    phones: u32,
    granted: Mutex<BTreeSet<u32>>,
}

impl Embedded {
    pub fn new(phones: u32) -> Embedded {
        Embedded {
            phones,
            granted: Mutex::new(BTreeSet::new()),
        }
    }

    fn granted(&self) -> std::sync::MutexGuard<'_, BTreeSet<u32>> {
        self.granted.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait::async_trait]
impl Source for Embedded {
    fn name(&self) -> String {
        "embedded".into()
    }

    async fn list(&self) -> Result<Vec<String>, FleetError> {
        let granted = self.granted();
        Ok((0..self.phones)
            .filter(|slot| !granted.contains(slot))
            .map(|slot| slot.to_string())
            .collect())
    }

    async fn lease(&self, id: &str, _ttl: Duration) -> Result<Grant, FleetError> {
        let slot: u32 = id
            .parse()
            .ok()
            .filter(|slot| *slot < self.phones)
            .ok_or_else(|| FleetError::Source {
                source_name: self.name(),
                reason: format!("no embedded phone {id:?} (there are {})", self.phones),
            })?;
        if !self.granted().insert(slot) {
            return Err(FleetError::Source {
                source_name: self.name(),
                reason: format!("embedded phone {slot} is already leased"),
            });
        }
        Ok(Grant {
            id: id.to_string(),
            endpoint: Endpoint::Embedded { slot },
            handle: None,
        })
    }

    async fn heartbeat(&self, _grant: &Grant, _ttl: Duration) -> Result<(), FleetError> {
        Ok(())
    }

    async fn release(&self, grant: &Grant) -> Result<(), FleetError> {
        if let Endpoint::Embedded { slot } = grant.endpoint {
            self.granted().remove(&slot);
        }
        Ok(())
    }
}
