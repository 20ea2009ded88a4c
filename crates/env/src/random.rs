//! `random:SEED`: environments drawn over B-MoCA's axes. Each seed gives one environment, always the
//! same: a device and one of its three sizes (B-MoCA's small/default/large, each with its font
//! scale), theme, wallpaper, locale, and a home screen with a random subset of the apps on random
//! cells of a 4- or 5-column grid and the dock.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Environment, HomeLayout, Slot, HOME_APPS, LOCALES};
use droidmcp_sim::apps::launcher::home::Place;
use droidmcp_sim::render::Wallpaper;
use droidmcp_sim::Profile;

/// B-MoCA's five devices.
const DEVICES: [Profile; 5] = [
    Profile::PIXEL_3,
    Profile::PIXEL_4,
    Profile::PIXEL_5,
    Profile::PIXEL_6,
    Profile::WXGA_TABLET,
];

/// The environment `random:SEED`.
pub fn draw(seed: u64) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x656e_7669_726f_6e73);
    let device = DEVICES[rng.gen_range(0..DEVICES.len())];
    // small, default, large: density ×0.75 / ×1 / ×1.25 with font 1.15 / 1.0 / 0.85, as B-MoCA pairs them.
    let (density_factor, font_scale) =
        [(0.75, 1.15), (1.0, 1.0), (1.25, 0.85)][rng.gen_range(0..3)];
    let density = (device.density as f32 * density_factor).round() as i32;
    let dark = rng.gen_bool(0.5);
    let wallpaper = Wallpaper::BMOCA[rng.gen_range(0..Wallpaper::BMOCA.len())];
    let locale = LOCALES[rng.gen_range(0..LOCALES.len())].to_string();
    let columns = if rng.gen_bool(0.5) { 4 } else { 5 };
    let rows = 5;
    let hotseat = columns;
    let mut places: Vec<Place> = (1..rows)
        .flat_map(|row| (0..columns).map(move |col| Place::Workspace { col, row }))
        .chain((0..hotseat).map(|slot| Place::Hotseat { slot }))
        .collect();
    places.shuffle(&mut rng);
    let mut apps: Vec<usize> = (0..HOME_APPS.len()).collect();
    apps.shuffle(&mut rng);
    let count = rng.gen_range(1..=HOME_APPS.len().min(places.len()));
    let slots = apps
        .into_iter()
        .zip(places)
        .take(count)
        .map(|(i, place)| Slot {
            app: &HOME_APPS[i],
            place,
        })
        .collect();
    Environment {
        name: format!("random:{seed}"),
        split: None,
        device,
        density,
        font_scale,
        dark,
        wallpaper,
        home: Some(HomeLayout {
            columns,
            rows,
            hotseat,
            slots,
        }),
        locale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable_and_vary_every_axis() {
        assert_eq!(draw(7), draw(7));
        let envs: Vec<Environment> = (0..64).map(draw).collect();
        let distinct = |f: &dyn Fn(&Environment) -> String| {
            envs.iter()
                .map(f)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        assert_eq!(distinct(&|e| e.device.name.to_string()), 5);
        assert_eq!(distinct(&|e| e.font_scale.to_string()), 3);
        assert_eq!(distinct(&|e| e.dark.to_string()), 2);
        assert!(distinct(&|e| e.wallpaper.name().to_string()) >= 10);
        assert!(distinct(&|e| e.locale.clone()) >= 12);
        assert!(distinct(&|e| e.home.as_ref().unwrap().signature()) >= 60);
        for e in &envs {
            let home = e.home.as_ref().unwrap();
            let places: std::collections::BTreeSet<_> =
                home.slots.iter().map(|s| s.place).collect();
            assert_eq!(places.len(), home.slots.len(), "no two apps share a cell");
        }
    }
}
