//! Broccoli (`com.flauschcode.broccoli`) on the embedded phone: the same records machinery as Pro
//! Expense over its `recipes` table, driven through the shell: no set-up pages, a recipe typed into
//! the form (the lower fields scrolled to), recipes listed by title, multi-select delete.

use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const PKG: &str = "com.flauschcode.broccoli";
const MAIN: &str = "com.flauschcode.broccoli/com.flauschcode.broccoli.MainActivity";
const DB: &str = "/data/data/com.flauschcode.broccoli/databases/broccoli";

fn id(name: &str) -> String {
    format!("{PKG}:id/{name}")
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, &id(name)).bounds);
}

fn sql(phone: &Phone, statement: &str) -> String {
    sh(phone, &format!("sqlite3 {DB} \"{statement}\""))
}

fn titles(phone: &Phone) -> Vec<String> {
    screen(phone)
        .nodes
        .iter()
        .filter(|n| n.resource_id == id("card_text_view_title"))
        .map(|n| n.text.clone())
        .collect()
}

#[test]
fn a_recipe_typed_into_the_form_is_one_row_with_every_field() {
    let phone = boot(11);
    let out = sh(&phone, &format!("am start -W -n {MAIN}"));
    assert!(out.contains("Status: ok"), "{out}");
    tap_id(&phone, "fab");
    for (field, text) in [
        ("new_title", "Pancakes"),
        ("new_servings", "2%sservings"),
        ("new_preparation_time", "20%smins"),
        ("new_directions", "Whisk%sand%sfry."),
    ] {
        // The form scrolls: swipe up until the field is on screen.
        for _ in 0..4 {
            if find(&screen(&phone), &|n| n.resource_id == id(field)).is_some() {
                break;
            }
            sh(&phone, "input swipe 540 1100 540 400 300");
        }
        tap_id(&phone, field);
        sh(&phone, &format!("input text {text}"));
    }
    tap_id(&phone, "button_save");
    assert_eq!(
        sql(
            &phone,
            "SELECT title, description, servings, preparationTime, source, ingredients, \
             directions, favorite, imageName FROM recipes"
        ),
        "Pancakes||2 servings|20 mins|||Whisk and fry.|0|\n"
    );
    assert_eq!(titles(&phone), ["Pancakes"]);
}

#[test]
fn recipes_list_by_title_and_multi_select_deletes_the_picked_ones() {
    let phone = boot(12);
    for title in ["Quick Fried Rice", "avocado Toast", "Miso Soup"] {
        sql(
            &phone,
            &format!("INSERT INTO recipes (title, description) VALUES ('{title}', 'Tasty')"),
        );
    }
    sh(&phone, &format!("am start -W -n {MAIN}"));
    assert_eq!(
        titles(&phone),
        ["avocado Toast", "Miso Soup", "Quick Fried Rice"]
    );
    let h = screen(&phone);
    let rice = find(&h, &|n| n.text == "Quick Fried Rice")
        .expect("rice")
        .bounds
        .center();
    sh(
        &phone,
        &format!(
            "input swipe {} {} {} {} 800",
            rice.x, rice.y, rice.x, rice.y
        ),
    );
    let h = screen(&phone);
    tap(
        &phone,
        find(&h, &|n| n.text == "Miso Soup").expect("soup").bounds,
    );
    tap_id(&phone, "btn_delete");
    let h = screen(&phone);
    tap(&phone, by_id(&h, "android:id/button1").bounds);
    assert_eq!(sql(&phone, "SELECT title FROM recipes"), "avocado Toast\n");
}

#[test]
fn a_recipes_long_directions_wrap_on_its_page_instead_of_ending_in_an_ellipsis() {
    let phone = boot(13);
    let directions = "Cook onions, garlic, bell peppers, and carrots. Add canned tomatoes, kidney \
                      beans, black beans, corn, and chili seasoning. Simmer until vegetables are \
                      tender.";
    sql(
        &phone,
        &format!(
            "INSERT INTO recipes (title, directions) VALUES ('Vegetarian Chili', '{directions}')"
        ),
    );
    sh(&phone, &format!("am start -W -n {MAIN}"));
    let h = screen(&phone);
    tap(
        &phone,
        find(&h, &|n| n.text == "Vegetarian Chili")
            .expect("row")
            .bounds,
    );
    let h = screen(&phone);
    let b = by_id(&h, &id("tv_directions")).bounds;
    let out = phone.exec("screencap -p");
    let img = image::load_from_memory(&out.stdout)
        .expect("screencap -p is a PNG")
        .to_rgba8();
    // 16sp text at 2.625 density: a line is 24sp, 63 px. The 170 characters take three lines of
    // the page's width, each of them inked.
    let line = 63;
    assert!(b.height() >= 3 * line, "directions get one line: {b:?}");
    let bg = img.get_pixel(4, b.top as u32).0;
    for k in 0..3 {
        let band =
            droidmcp::geom::Bounds::new(b.left, b.top + k * line, b.right, b.top + (k + 1) * line);
        assert!(
            crate::util::inked(&img, band, bg) > 300,
            "line {k} of the directions is blank"
        );
    }
}
