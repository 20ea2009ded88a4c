//! The `contact` setup step: a contact written into the contacts provider's database
//! (`contacts2.db`) with every derived column the provider keeps — display and sort names, the
//! phonebook label, the lookup key and the `phone_lookup` row callers are matched by — so a
//! seeded contact is found by name in Contacts, by number when it calls or texts, and by
//! `content://com.android.contacts/phone_lookup/…`, exactly like one saved in the app.
//!
//! Tasks used to rename the address book's contacts with hand-written `UPDATE`s, which left the
//! lookup key and `phone_lookup.min_match` of the old number behind (an incoming call from the
//! new number showed no name). One builder now writes what `sim::providers::contacts::insert`
//! writes; a test holds the two to the same rows.

use crate::task::template::sql_quote;
use droidmcp_sim::providers::contacts::{self, DB_PATH, MIME_NAME, MIME_PHONE};
use droidmcp_sim::providers::phone_number;

/// A contact to seed.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedContact {
    pub first: String,
    pub last: String,
    pub phone: String,
    pub starred: bool,
    /// `contacts._id` of an existing contact this one takes the place of (deleted first, as the
    /// provider deletes), so the address book keeps its size.
    pub replace: Option<i64>,
}

impl SeedContact {
    pub fn display_name(&self) -> String {
        [self.first.trim(), self.last.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The database the statements run against.
    pub fn db() -> &'static str {
        DB_PATH
    }

    /// The SQL that writes the contact, in one transaction-sized batch.
    pub fn sql(&self) -> Result<String, String> {
        let name = self.display_name();
        let phone = self.phone.trim();
        if name.is_empty() {
            return Err("contact needs a first or last name".into());
        }
        if phone_number::digits(phone).is_empty() {
            return Err(format!("contact {name:?}: phone {phone:?} has no digits"));
        }
        let (first, last) = (self.first.trim(), self.last.trim());
        let alt = if !first.is_empty() && !last.is_empty() {
            format!("{last}, {first}")
        } else {
            name.clone()
        };
        let label = contacts::phonebook_label(&name);
        let lookup_tail = contacts::lookup_name(&name);
        let normalized = phone_number::normalize(phone);
        let lookup_number = normalized
            .clone()
            .unwrap_or_else(|| phone_number::strip_separators(phone));
        let q = |s: &str| sql_quote(s);
        // Text columns: quote even digit-only values as text, as the provider binds them.
        let t = |s: &str| format!("'{}'", s.replace('\'', "''"));
        let starred = self.starred as i64;
        let raw = "(SELECT max(_id) FROM raw_contacts)";
        let mut sql = String::new();
        if let Some(id) = self.replace {
            let raws = format!("(SELECT _id FROM raw_contacts WHERE contact_id = {id})");
            sql.push_str(&format!(
                "UPDATE contacts SET name_raw_contact_id = NULL WHERE _id = {id}; \
                 DELETE FROM phone_lookup WHERE raw_contact_id IN {raws}; \
                 DELETE FROM data WHERE raw_contact_id IN {raws}; \
                 DELETE FROM raw_contacts WHERE contact_id = {id}; \
                 DELETE FROM contacts WHERE _id = {id}; "
            ));
        }
        sql.push_str(&format!(
            "INSERT INTO raw_contacts (account_id, aggregation_needed, display_name, display_name_alt, \
               display_name_source, sort_key, sort_key_alt, phonebook_label, phonebook_label_alt, starred) \
             VALUES (NULL, 0, {n}, {a}, 40, {n}, {a}, {l}, {l}, {starred}); \
             INSERT INTO contacts (name_raw_contact_id, contact_last_updated_timestamp, has_phone_number, \
               starred, lookup) \
             VALUES ({raw}, CAST(strftime('%s', 'now') AS INTEGER) * 1000, 1, {starred}, \
               '0r' || {raw} || '-' || {lk}); \
             UPDATE raw_contacts SET contact_id = (SELECT max(_id) FROM contacts) WHERE _id = {raw}; \
             INSERT INTO data (mimetype_id, raw_contact_id, data1, data2, data3, data10, data11) \
             VALUES ((SELECT _id FROM mimetypes WHERE mimetype = {mn}), {raw}, {n}, {f}, {la}, 1, 0); \
             INSERT INTO data (mimetype_id, raw_contact_id, is_primary, data1, data2, data4) \
             VALUES ((SELECT _id FROM mimetypes WHERE mimetype = {mp}), {raw}, 1, {p}, '2', {norm}); \
             INSERT INTO phone_lookup (data_id, raw_contact_id, normalized_number, min_match) \
             VALUES (last_insert_rowid(), {raw}, {ln}, {mm});",
            n = q(&name),
            a = q(&alt),
            l = q(&label),
            lk = t(&lookup_tail),
            mn = q(MIME_NAME),
            mp = q(MIME_PHONE),
            f = if first.is_empty() { "NULL".into() } else { q(first) },
            la = if last.is_empty() { "NULL".into() } else { q(last) },
            p = t(phone),
            norm = normalized.as_deref().map(t).unwrap_or_else(|| "NULL".into()),
            ln = t(&lookup_number),
            mm = t(&phone_number::min_match(phone)),
        ));
        Ok(sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use droidmcp_sim::providers::contacts::ContactDraft;
    use rusqlite::Connection;

    /// Every row of the contact tables, ids and timestamps left out.
    fn rows(conn: &Connection) -> Vec<String> {
        let mut out = Vec::new();
        for (table, cols) in [
            ("raw_contacts", "display_name, display_name_alt, display_name_source, sort_key, sort_key_alt, phonebook_label, phonebook_label_alt, starred, deleted, aggregation_needed, contact_id IS NOT NULL"),
            ("contacts", "has_phone_number, starred, lookup = '0r' || name_raw_contact_id || '-' || substr(lookup, instr(lookup, '-') + 1), substr(lookup, instr(lookup, '-') + 1)"),
            ("data", "(SELECT mimetype FROM mimetypes WHERE _id = mimetype_id), is_primary, data1, data2, data3, data4, data10, data11"),
            ("phone_lookup", "normalized_number, min_match, data_id IN (SELECT _id FROM data)"),
        ] {
            let mut stmt = conn
                .prepare(&format!("SELECT {cols} FROM {table} ORDER BY 1, 2"))
                .unwrap();
            let n = stmt.column_count();
            let mapped = stmt
                .query_map([], |r| {
                    let cells: Vec<String> = (0..n)
                        .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                        .collect();
                    Ok(format!("{table}: {}", cells.join(" | ")))
                })
                .unwrap();
            out.extend(mapped.map(Result::unwrap));
        }
        out
    }

    fn fresh() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        contacts::create_schema(&conn).unwrap();
        conn
    }

    #[test]
    fn seeded_contacts_match_what_the_provider_writes() {
        let people = [
            ("Rosa", "Tanaka", "(650) 555-0142"),
            ("Ana", "", "+44 20 7946 0958"),
        ];
        let by_provider = fresh();
        for (first, last, phone) in people {
            let draft = ContactDraft {
                first: first.into(),
                last: last.into(),
                phone: phone.into(),
                phone_type: 2,
                email: String::new(),
            };
            contacts::insert(&by_provider, &draft, 0).unwrap();
        }
        let by_seed = fresh();
        for (first, last, phone) in people {
            let seed = SeedContact {
                first: first.into(),
                last: last.into(),
                phone: phone.into(),
                starred: false,
                replace: None,
            };
            by_seed.execute_batch(&seed.sql().unwrap()).unwrap();
        }
        assert_eq!(rows(&by_seed), rows(&by_provider));
        let found = contacts::lookup_number(&by_seed, "650-555-0142").unwrap();
        assert_eq!(found.map(|c| c.name).as_deref(), Some("Rosa Tanaka"));
    }

    #[test]
    fn a_replacement_takes_the_old_contacts_place_and_number() {
        let conn = fresh();
        let old = ContactDraft {
            first: "Oliver".into(),
            last: "Patel".into(),
            phone: "415-555-0100".into(),
            phone_type: 2,
            email: String::new(),
        };
        let id = contacts::insert(&conn, &old, 0).unwrap();
        let seed = SeedContact {
            first: "Keiko".into(),
            last: "Larsen".into(),
            phone: "212-555-0199".into(),
            starred: true,
            replace: Some(id),
        };
        conn.execute_batch(&seed.sql().unwrap()).unwrap();
        let all = contacts::all(&conn).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].name, "Keiko Larsen");
        assert!(all[0].starred);
        assert!(contacts::lookup_number(&conn, "415-555-0100")
            .unwrap()
            .is_none());
        assert_eq!(
            contacts::lookup_number(&conn, "(212) 555-0199")
                .unwrap()
                .map(|c| c.name)
                .as_deref(),
            Some("Keiko Larsen")
        );
    }

    #[test]
    fn a_contact_without_a_name_or_digits_is_refused() {
        let mut seed = SeedContact {
            first: " ".into(),
            last: "".into(),
            phone: "555".into(),
            starred: false,
            replace: None,
        };
        assert!(seed.sql().unwrap_err().contains("name"));
        seed.first = "Ana".into();
        seed.phone = "call me".into();
        assert!(seed.sql().unwrap_err().contains("no digits"));
    }
}
