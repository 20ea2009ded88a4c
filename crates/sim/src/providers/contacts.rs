//! The contacts provider's store: `contacts2.db` with ContactsProvider2's tables (`accounts`,
//! `mimetypes`, `raw_contacts`, `contacts`, `data`, `phone_lookup`) and the views its URIs read
//! (`view_contacts`, `view_raw_contacts`, `view_data`, and the legacy `view_v1_people` /
//! `view_v1_phones` behind `content://contacts/…`).
//!
//! Every contact here is local (one raw contact per contact, no aggregation across accounts),
//! which is what a phone without a Google account has.

use rusqlite::{params, Connection, OptionalExtension};

use super::phone_number;
use super::{row_id, Db, Source};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.contacts/databases/contacts2.db";

pub const MIME_NAME: &str = "vnd.android.cursor.item/name";
pub const MIME_PHONE: &str = "vnd.android.cursor.item/phone_v2";
pub const MIME_EMAIL: &str = "vnd.android.cursor.item/email_v2";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS accounts (_id INTEGER PRIMARY KEY AUTOINCREMENT, account_name TEXT,
  account_type TEXT, data_set TEXT);
CREATE TABLE IF NOT EXISTS mimetypes (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  mimetype TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS mime_type ON mimetypes (mimetype);
CREATE TABLE IF NOT EXISTS contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name_raw_contact_id INTEGER REFERENCES raw_contacts(_id), photo_id INTEGER,
  photo_file_id INTEGER, custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
  times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER,
  starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
  has_phone_number INTEGER NOT NULL DEFAULT 0, lookup TEXT, status_update_id INTEGER,
  contact_last_updated_timestamp INTEGER);
CREATE TABLE IF NOT EXISTS raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER REFERENCES accounts(_id), sourceid TEXT, backup_id TEXT,
  raw_contact_is_read_only INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1,
  dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
  metadata_dirty INTEGER NOT NULL DEFAULT 0, contact_id INTEGER REFERENCES contacts(_id),
  aggregation_mode INTEGER NOT NULL DEFAULT 0, aggregation_needed INTEGER NOT NULL DEFAULT 1,
  custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
  times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER,
  starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0, display_name TEXT,
  display_name_alt TEXT, display_name_source INTEGER NOT NULL DEFAULT 0, phonetic_name TEXT,
  phonetic_name_style TEXT, sort_key TEXT COLLATE NOCASE, phonebook_label TEXT,
  phonebook_bucket INTEGER, sort_key_alt TEXT COLLATE NOCASE, phonebook_label_alt TEXT,
  phonebook_bucket_alt INTEGER, name_verified INTEGER NOT NULL DEFAULT 0, sync1 TEXT, sync2 TEXT,
  sync3 TEXT, sync4 TEXT);
CREATE TABLE IF NOT EXISTS data (_id INTEGER PRIMARY KEY AUTOINCREMENT, package_id INTEGER,
  mimetype_id INTEGER REFERENCES mimetypes(_id) NOT NULL,
  raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, hash_id TEXT,
  is_read_only INTEGER NOT NULL DEFAULT 0, is_primary INTEGER NOT NULL DEFAULT 0,
  is_super_primary INTEGER NOT NULL DEFAULT 0, data_version INTEGER NOT NULL DEFAULT 0,
  data1 TEXT, data2 TEXT, data3 TEXT, data4 TEXT, data5 TEXT, data6 TEXT, data7 TEXT, data8 TEXT,
  data9 TEXT, data10 TEXT, data11 TEXT, data12 TEXT, data13 TEXT, data14 TEXT, data15 TEXT,
  data_sync1 TEXT, data_sync2 TEXT, data_sync3 TEXT, data_sync4 TEXT,
  carrier_presence INTEGER NOT NULL DEFAULT 0, preferred_phone_account_component_name TEXT,
  preferred_phone_account_id TEXT);
CREATE TABLE IF NOT EXISTS phone_lookup (data_id INTEGER REFERENCES data(_id) NOT NULL,
  raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL,
  normalized_number TEXT NOT NULL, min_match TEXT NOT NULL);
INSERT OR IGNORE INTO mimetypes (mimetype) VALUES ('vnd.android.cursor.item/name');
INSERT OR IGNORE INTO mimetypes (mimetype) VALUES ('vnd.android.cursor.item/phone_v2');
INSERT OR IGNORE INTO mimetypes (mimetype) VALUES ('vnd.android.cursor.item/email_v2');
CREATE VIEW IF NOT EXISTS view_raw_contacts AS
  SELECT raw_contacts._id AS _id, contact_id, accounts.account_name AS account_name,
    accounts.account_type AS account_type, accounts.data_set AS data_set, sourceid, version,
    dirty, deleted, aggregation_mode, custom_ringtone, send_to_voicemail, times_contacted,
    last_time_contacted, starred, pinned, display_name, display_name_alt, display_name_source,
    phonetic_name, phonetic_name_style, sort_key, phonebook_label, phonebook_bucket,
    sort_key_alt, phonebook_label_alt, phonebook_bucket_alt, raw_contact_is_read_only,
    name_verified, sync1, sync2, sync3, sync4
  FROM raw_contacts LEFT JOIN accounts ON raw_contacts.account_id = accounts._id;
CREATE VIEW IF NOT EXISTS view_contacts AS
  SELECT contacts._id AS _id, contacts.custom_ringtone AS custom_ringtone,
    raw_contacts.display_name_source AS display_name_source,
    raw_contacts.display_name AS display_name, raw_contacts.display_name_alt AS display_name_alt,
    raw_contacts.phonetic_name AS phonetic_name, raw_contacts.sort_key AS sort_key,
    raw_contacts.phonebook_label AS phonebook_label,
    raw_contacts.phonebook_bucket AS phonebook_bucket, raw_contacts.sort_key_alt AS sort_key_alt,
    contacts.has_phone_number AS has_phone_number, contacts.name_raw_contact_id AS
    name_raw_contact_id, contacts.lookup AS lookup, contacts.photo_id AS photo_id,
    contacts.photo_file_id AS photo_file_id, contacts.send_to_voicemail AS send_to_voicemail,
    contacts.starred AS starred, contacts.pinned AS pinned,
    contacts.times_contacted AS times_contacted,
    contacts.last_time_contacted AS last_time_contacted,
    contacts.contact_last_updated_timestamp AS contact_last_updated_timestamp
  FROM contacts JOIN raw_contacts ON contacts.name_raw_contact_id = raw_contacts._id;
CREATE VIEW IF NOT EXISTS view_data AS
  SELECT data._id AS _id, data.raw_contact_id AS raw_contact_id,
    raw_contacts.contact_id AS contact_id, accounts.account_name AS account_name,
    accounts.account_type AS account_type, mimetypes.mimetype AS mimetype,
    data.is_read_only AS is_read_only, data.is_primary AS is_primary,
    data.is_super_primary AS is_super_primary, data.data_version AS data_version,
    data1, data2, data3, data4, data5, data6, data7, data8, data9, data10, data11, data12,
    data13, data14, data15, data_sync1, data_sync2, data_sync3, data_sync4,
    raw_contacts.display_name AS display_name, raw_contacts.display_name_alt AS display_name_alt,
    raw_contacts.display_name_source AS display_name_source,
    raw_contacts.sort_key AS sort_key, raw_contacts.starred AS starred,
    contacts.has_phone_number AS has_phone_number, contacts.lookup AS lookup,
    contacts.photo_id AS photo_id, contacts.times_contacted AS times_contacted,
    contacts.last_time_contacted AS last_time_contacted
  FROM data JOIN mimetypes ON data.mimetype_id = mimetypes._id
    JOIN raw_contacts ON data.raw_contact_id = raw_contacts._id
    LEFT JOIN accounts ON raw_contacts.account_id = accounts._id
    LEFT JOIN contacts ON raw_contacts.contact_id = contacts._id
  WHERE raw_contacts.deleted = 0;
CREATE VIEW IF NOT EXISTS view_v1_people AS
  SELECT raw_contacts._id AS _id, raw_contacts.display_name AS name,
    raw_contacts.display_name AS display_name, raw_contacts.phonetic_name AS phonetic_name,
    NULL AS notes, raw_contacts.times_contacted AS times_contacted,
    raw_contacts.last_time_contacted AS last_time_contacted,
    raw_contacts.custom_ringtone AS custom_ringtone,
    raw_contacts.send_to_voicemail AS send_to_voicemail, raw_contacts.starred AS starred,
    phone._id AS primary_phone, email._id AS primary_email, phone.data1 AS number,
    phone.data2 AS type, phone.data3 AS label, phone.data4 AS number_key
  FROM raw_contacts
    LEFT JOIN data AS phone ON phone._id = (SELECT d._id FROM data d JOIN mimetypes m
      ON d.mimetype_id = m._id WHERE d.raw_contact_id = raw_contacts._id
      AND m.mimetype = 'vnd.android.cursor.item/phone_v2' ORDER BY d.is_primary DESC, d._id LIMIT 1)
    LEFT JOIN data AS email ON email._id = (SELECT d._id FROM data d JOIN mimetypes m
      ON d.mimetype_id = m._id WHERE d.raw_contact_id = raw_contacts._id
      AND m.mimetype = 'vnd.android.cursor.item/email_v2' ORDER BY d.is_primary DESC, d._id LIMIT 1)
  WHERE raw_contacts.deleted = 0;
CREATE VIEW IF NOT EXISTS view_v1_phones AS
  SELECT data._id AS _id, data.raw_contact_id AS person, data.is_primary AS isprimary,
    data.data2 AS type, data.data1 AS number, data.data3 AS label, data.data4 AS number_key,
    raw_contacts.display_name AS name, raw_contacts.display_name AS display_name,
    raw_contacts.phonetic_name AS phonetic_name, NULL AS notes,
    raw_contacts.times_contacted AS times_contacted,
    raw_contacts.last_time_contacted AS last_time_contacted,
    raw_contacts.custom_ringtone AS custom_ringtone,
    raw_contacts.send_to_voicemail AS send_to_voicemail, raw_contacts.starred AS starred
  FROM data JOIN mimetypes ON data.mimetype_id = mimetypes._id
    JOIN raw_contacts ON data.raw_contact_id = raw_contacts._id
  WHERE mimetypes.mimetype = 'vnd.android.cursor.item/phone_v2' AND raw_contacts.deleted = 0;
";

/// Opens `contacts2.db`, creating its tables and views as the provider does on first use.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(DB_PATH)?;
    create_schema(&conn)?;
    Ok(conn)
}

/// Creates the provider's tables and views where they are missing.
pub fn create_schema(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)
}

pub(crate) fn source(authority: &str, segments: &[&str]) -> Option<Source> {
    let src = |table: &'static str, filter: Option<String>, sort: &'static str| {
        Some(Source {
            db: Db::Contacts,
            table,
            filter,
            default_sort: Some(sort),
        })
    };
    let by_id = |id: &str| Some(format!("_id = {}", row_id(id)?));
    let phones = format!("mimetype = '{MIME_PHONE}'");
    let emails = format!("mimetype = '{MIME_EMAIL}'");
    match (authority, segments) {
        ("com.android.contacts", ["contacts"]) => src("view_contacts", None, "sort_key"),
        ("com.android.contacts", ["contacts", id]) => src("view_contacts", by_id(id), "_id"),
        ("com.android.contacts", ["raw_contacts"]) => src("view_raw_contacts", None, "_id"),
        ("com.android.contacts", ["raw_contacts", id]) => {
            src("view_raw_contacts", by_id(id), "_id")
        }
        ("com.android.contacts", ["data"]) => src("view_data", None, "_id"),
        ("com.android.contacts", ["data", "phones"]) => src("view_data", Some(phones), "_id"),
        ("com.android.contacts", ["data", "phones", id]) => src(
            "view_data",
            Some(format!("{phones} AND {}", by_id(id)?)),
            "_id",
        ),
        ("com.android.contacts", ["data", "emails"]) => src("view_data", Some(emails), "_id"),
        ("com.android.contacts", ["data", id]) => src("view_data", by_id(id), "_id"),
        ("com.android.contacts", ["phone_lookup", number]) => {
            let d = phone_number::digits(number);
            if d.is_empty() {
                return None;
            }
            let min = phone_number::min_match(&d);
            src(
                "view_data",
                Some(format!(
                    "{phones} AND _id IN (SELECT data_id FROM phone_lookup WHERE min_match = '{min}')"
                )),
                "_id",
            )
        }
        ("contacts", ["people"]) => src("view_v1_people", None, "name COLLATE NOCASE ASC"),
        ("contacts", ["people", id]) => src("view_v1_people", by_id(id), "_id"),
        ("contacts", ["phones"]) => src("view_v1_phones", None, "name ASC"),
        ("contacts", ["phones", id]) => src("view_v1_phones", by_id(id), "_id"),
        _ => None,
    }
}

/// `Phone.TYPE` values and their labels in the editor's label menu.
pub const PHONE_TYPES: [(i64, &str); 4] = [(2, "Mobile"), (3, "Work"), (1, "Home"), (7, "Other")];

/// The label Contacts shows for a phone type.
pub fn phone_type_label(kind: i64) -> &'static str {
    PHONE_TYPES
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, l)| *l)
        .unwrap_or("Other")
}

/// What the editor saves.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContactDraft {
    pub first: String,
    pub last: String,
    pub phone: String,
    /// `Phone.TYPE` (2 mobile, 3 work, 1 home, 7 other).
    pub phone_type: i64,
    pub email: String,
}

impl ContactDraft {
    pub fn display_name(&self) -> String {
        [self.first.trim(), self.last.trim()]
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn is_empty(&self) -> bool {
        self.display_name().is_empty()
            && self.phone.trim().is_empty()
            && self.email.trim().is_empty()
    }
}

/// A contact as the Contacts app lists and shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// `contacts._id`.
    pub id: i64,
    pub raw_id: i64,
    pub name: String,
    pub first: String,
    pub last: String,
    pub phones: Vec<(String, i64)>,
    pub emails: Vec<String>,
    pub starred: bool,
}

impl Contact {
    pub fn primary_phone(&self) -> Option<&str> {
        self.phones.first().map(|(n, _)| n.as_str())
    }
}

fn mimetype_id(conn: &Connection, mimetype: &str) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT _id FROM mimetypes WHERE mimetype = ?1",
        [mimetype],
        |r| r.get(0),
    )
}

/// Creates a local contact (raw contact, aggregate, name/phone/email data rows, phone lookup) and
/// returns its `contacts._id`.
pub fn insert(conn: &Connection, draft: &ContactDraft, now_ms: i64) -> rusqlite::Result<i64> {
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "INSERT INTO raw_contacts (account_id, aggregation_needed) VALUES (NULL, 0)",
        [],
    )?;
    let raw_id = tx.last_insert_rowid();
    tx.execute(
        "INSERT INTO contacts (name_raw_contact_id, contact_last_updated_timestamp) VALUES (?1, ?2)",
        params![raw_id, now_ms],
    )?;
    let contact_id = tx.last_insert_rowid();
    tx.execute(
        "UPDATE raw_contacts SET contact_id = ?1 WHERE _id = ?2",
        params![contact_id, raw_id],
    )?;
    write_data(&tx, raw_id, contact_id, draft, now_ms)?;
    tx.commit()?;
    Ok(contact_id)
}

/// Replaces a contact's name, phone and email with the draft's.
pub fn update(
    conn: &Connection,
    contact_id: i64,
    draft: &ContactDraft,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    let raw_id: i64 = tx.query_row(
        "SELECT name_raw_contact_id FROM contacts WHERE _id = ?1",
        [contact_id],
        |r| r.get(0),
    )?;
    tx.execute(
        "DELETE FROM phone_lookup WHERE raw_contact_id = ?1",
        [raw_id],
    )?;
    tx.execute("DELETE FROM data WHERE raw_contact_id = ?1", [raw_id])?;
    tx.execute(
        "UPDATE raw_contacts SET version = version + 1, dirty = 1 WHERE _id = ?1",
        [raw_id],
    )?;
    write_data(&tx, raw_id, contact_id, draft, now_ms)?;
    tx.commit()
}

fn write_data(
    conn: &Connection,
    raw_id: i64,
    contact_id: i64,
    draft: &ContactDraft,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let name = draft.display_name();
    let first = draft.first.trim();
    let last = draft.last.trim();
    let phone = draft.phone.trim();
    let email = draft.email.trim();
    let (display, alt, source) = if !name.is_empty() {
        let alt = if !first.is_empty() && !last.is_empty() {
            format!("{last}, {first}")
        } else {
            name.clone()
        };
        (name.clone(), alt, 40)
    } else if !phone.is_empty() {
        (phone.to_string(), phone.to_string(), 20)
    } else {
        (email.to_string(), email.to_string(), 10)
    };
    let label = phonebook_label(&display);
    conn.execute(
        "UPDATE raw_contacts SET display_name = ?1, display_name_alt = ?2, display_name_source = ?3,
           sort_key = ?1, sort_key_alt = ?2, phonebook_label = ?4, phonebook_label_alt = ?4
         WHERE _id = ?5",
        params![display, alt, source, label, raw_id],
    )?;
    if !name.is_empty() {
        conn.execute(
            "INSERT INTO data (mimetype_id, raw_contact_id, data1, data2, data3, data10, data11)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, 0)",
            params![
                mimetype_id(conn, MIME_NAME)?,
                raw_id,
                name,
                (!first.is_empty()).then_some(first),
                (!last.is_empty()).then_some(last),
            ],
        )?;
    }
    if !phone.is_empty() {
        let normalized = phone_number::normalize(phone);
        conn.execute(
            "INSERT INTO data (mimetype_id, raw_contact_id, is_primary, data1, data2, data4)
             VALUES (?1, ?2, 1, ?3, ?4, ?5)",
            params![
                mimetype_id(conn, MIME_PHONE)?,
                raw_id,
                phone,
                draft.phone_type.to_string(),
                normalized
            ],
        )?;
        let data_id = conn.last_insert_rowid();
        conn.execute(
            "INSERT INTO phone_lookup (data_id, raw_contact_id, normalized_number, min_match)
             VALUES (?1, ?2, ?3, ?4)",
            params![
                data_id,
                raw_id,
                normalized.unwrap_or_else(|| phone_number::strip_separators(phone)),
                phone_number::min_match(phone)
            ],
        )?;
    }
    if !email.is_empty() {
        conn.execute(
            "INSERT INTO data (mimetype_id, raw_contact_id, is_primary, data1, data2)
             VALUES (?1, ?2, 1, ?3, '1')",
            params![mimetype_id(conn, MIME_EMAIL)?, raw_id, email],
        )?;
    }
    let lookup = format!("0r{raw_id}-{}", lookup_name(&display));
    conn.execute(
        "UPDATE contacts SET has_phone_number = ?1, lookup = ?2, contact_last_updated_timestamp = ?3
         WHERE _id = ?4",
        params![!phone.is_empty() as i64, lookup, now_ms, contact_id],
    )?;
    Ok(())
}

/// The index letter the list groups a name under (`#` for a name that starts with no letter).
pub fn phonebook_label(display: &str) -> String {
    display
        .chars()
        .next()
        .filter(|c| c.is_alphabetic())
        .map(|c| c.to_uppercase().to_string())
        .unwrap_or_else(|| "#".to_string())
}

/// The name part of a local contact's lookup key (`0r<raw id>-<this>`).
pub fn lookup_name(display: &str) -> String {
    display
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_uppercase()
}

/// Deletes a contact with its raw contact and data.
pub fn delete(conn: &Connection, contact_id: i64) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    let raw_ids: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT _id FROM raw_contacts WHERE contact_id = ?1")?;
        let ids = stmt.query_map([contact_id], |r| r.get(0))?;
        ids.collect::<rusqlite::Result<_>>()?
    };
    // raw_contacts and contacts reference each other; unlink the aggregate first.
    tx.execute(
        "UPDATE contacts SET name_raw_contact_id = NULL WHERE _id = ?1",
        [contact_id],
    )?;
    for raw in raw_ids {
        tx.execute("DELETE FROM phone_lookup WHERE raw_contact_id = ?1", [raw])?;
        tx.execute("DELETE FROM data WHERE raw_contact_id = ?1", [raw])?;
        tx.execute("DELETE FROM raw_contacts WHERE _id = ?1", [raw])?;
    }
    tx.execute("DELETE FROM contacts WHERE _id = ?1", [contact_id])?;
    tx.commit()
}

/// Stars or unstars a contact (Favorites).
pub fn set_starred(conn: &Connection, contact_id: i64, starred: bool) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE contacts SET starred = ?1 WHERE _id = ?2",
        params![starred as i64, contact_id],
    )?;
    conn.execute(
        "UPDATE raw_contacts SET starred = ?1 WHERE contact_id = ?2",
        params![starred as i64, contact_id],
    )?;
    Ok(())
}

/// Every contact sorted as the list shows them (by display name, case-insensitively).
pub fn all(conn: &Connection) -> rusqlite::Result<Vec<Contact>> {
    let ids: Vec<i64> = {
        let mut stmt = conn
            .prepare("SELECT _id FROM view_contacts ORDER BY display_name COLLATE NOCASE, _id")?;
        let ids = stmt.query_map([], |r| r.get(0))?;
        ids.collect::<rusqlite::Result<_>>()?
    };
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(c) = get(conn, id)? {
            out.push(c);
        }
    }
    Ok(out)
}

/// One contact by `contacts._id`.
pub fn get(conn: &Connection, contact_id: i64) -> rusqlite::Result<Option<Contact>> {
    let head: Option<(i64, String, bool)> = conn
        .query_row(
            "SELECT name_raw_contact_id, IFNULL(display_name, ''), starred FROM view_contacts
             WHERE _id = ?1",
            [contact_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? != 0)),
        )
        .optional()?;
    let Some((raw_id, name, starred)) = head else {
        return Ok(None);
    };
    let mut contact = Contact {
        id: contact_id,
        raw_id,
        name,
        first: String::new(),
        last: String::new(),
        phones: Vec::new(),
        emails: Vec::new(),
        starred,
    };
    let mut stmt = conn.prepare(
        "SELECT mimetype, IFNULL(data1, ''), IFNULL(data2, ''), IFNULL(data3, '') FROM view_data
         WHERE raw_contact_id = ?1 ORDER BY _id",
    )?;
    let rows = stmt.query_map([raw_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    for row in rows {
        let (mime, d1, d2, d3) = row?;
        match mime.as_str() {
            MIME_NAME => {
                contact.first = d2;
                contact.last = d3;
            }
            MIME_PHONE => contact.phones.push((d1, d2.parse().unwrap_or(2))),
            MIME_EMAIL => contact.emails.push(d1),
            _ => {}
        }
    }
    Ok(Some(contact))
}

/// The contact whose phone number reaches `number`, if any (caller id).
pub fn lookup_number(conn: &Connection, number: &str) -> rusqlite::Result<Option<Contact>> {
    if phone_number::digits(number).is_empty() {
        return Ok(None);
    }
    let mut stmt = conn.prepare(
        "SELECT contact_id, data1 FROM view_data WHERE mimetype = ?1 ORDER BY contact_id",
    )?;
    let rows = stmt.query_map([MIME_PHONE], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
    })?;
    for row in rows {
        let (id, stored) = row?;
        if stored.is_some_and(|s| phone_number::same_line(&s, number)) {
            return get(conn, id);
        }
    }
    Ok(None)
}
