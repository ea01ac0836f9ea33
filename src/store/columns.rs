//! Reading a stored row by its columns' names, on either kind of connection: the one mapping
//! from rows to the store's types (`rows.rs`) is written against [`Stored`], and serves the
//! SQLite writer's rusqlite rows and sqlx's rows (every read on PostgreSQL, and the reads
//! outside the writer on SQLite) alike. A value that does not fit its column's type is a
//! [`StoreError::Corrupt`] naming the table and the column.

use std::fmt::Display;

use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use super::StoreError;

/// A row's values by column name, as the database returned them. Errors are the cause in
/// words; [`Columns`] adds the table and the column.
pub(super) trait Stored {
    fn text(&self, column: &'static str) -> Result<String, String>;
    fn text_or_null(&self, column: &'static str) -> Result<Option<String>, String>;
    fn int(&self, column: &'static str) -> Result<i64, String>;
    fn int_or_null(&self, column: &'static str) -> Result<Option<i64>, String>;
    fn real_or_null(&self, column: &'static str) -> Result<Option<f64>, String>;
}

impl Stored for rusqlite::Row<'_> {
    fn text(&self, column: &'static str) -> Result<String, String> {
        self.get(column).map_err(|e| e.to_string())
    }
    fn text_or_null(&self, column: &'static str) -> Result<Option<String>, String> {
        self.get(column).map_err(|e| e.to_string())
    }
    fn int(&self, column: &'static str) -> Result<i64, String> {
        self.get(column).map_err(|e| e.to_string())
    }
    fn int_or_null(&self, column: &'static str) -> Result<Option<i64>, String> {
        self.get(column).map_err(|e| e.to_string())
    }
    fn real_or_null(&self, column: &'static str) -> Result<Option<f64>, String> {
        self.get(column).map_err(|e| e.to_string())
    }
}

impl Stored for AnyRow {
    fn text(&self, column: &'static str) -> Result<String, String> {
        self.try_get(column).map_err(|e| e.to_string())
    }
    fn text_or_null(&self, column: &'static str) -> Result<Option<String>, String> {
        self.try_get(column).map_err(|e| e.to_string())
    }
    fn int(&self, column: &'static str) -> Result<i64, String> {
        self.try_get(column).map_err(|e| e.to_string())
    }
    fn int_or_null(&self, column: &'static str) -> Result<Option<i64>, String> {
        self.try_get(column).map_err(|e| e.to_string())
    }
    fn real_or_null(&self, column: &'static str) -> Result<Option<f64>, String> {
        self.try_get(column).map_err(|e| e.to_string())
    }
}

/// A row of `table`, read column by column into the store's types.
pub(super) struct Columns<'r, R: ?Sized> {
    row: &'r R,
    table: &'static str,
}

impl<'r, R: Stored + ?Sized> Columns<'r, R> {
    pub fn of(table: &'static str, row: &'r R) -> Columns<'r, R> {
        Columns { row, table }
    }

    /// The error for a value of `column` that Herald cannot have written.
    pub fn corrupt(&self, column: &'static str, cause: impl Display) -> StoreError {
        StoreError::Corrupt {
            table: self.table,
            column,
            cause: cause.to_string(),
        }
    }

    pub fn text(&self, column: &'static str) -> Result<String, StoreError> {
        self.row
            .text(column)
            .map_err(|cause| self.corrupt(column, cause))
    }

    pub fn text_or_null(&self, column: &'static str) -> Result<Option<String>, StoreError> {
        self.row
            .text_or_null(column)
            .map_err(|cause| self.corrupt(column, cause))
    }

    pub fn int(&self, column: &'static str) -> Result<i64, StoreError> {
        self.row
            .int(column)
            .map_err(|cause| self.corrupt(column, cause))
    }

    pub fn int_or_null(&self, column: &'static str) -> Result<Option<i64>, StoreError> {
        self.row
            .int_or_null(column)
            .map_err(|cause| self.corrupt(column, cause))
    }

    /// An 8-byte float column (a rating's numbers), NULL as None.
    pub fn real_or_null(&self, column: &'static str) -> Result<Option<f64>, StoreError> {
        self.row
            .real_or_null(column)
            .map_err(|cause| self.corrupt(column, cause))
    }

    /// An 8-byte float column that is never NULL.
    pub fn real(&self, column: &'static str) -> Result<f64, StoreError> {
        self.real_or_null(column)?
            .ok_or_else(|| self.corrupt(column, "NULL where a number belongs"))
    }

    /// A count or a position (a round, a seat): an integer of `T`'s range.
    pub fn count<T: TryFrom<i64>>(&self, column: &'static str) -> Result<T, StoreError> {
        let value = self.int(column)?;
        T::try_from(value).map_err(|_| self.corrupt(column, format!("{value} is out of range")))
    }

    pub fn uuid(&self, column: &'static str) -> Result<Uuid, StoreError> {
        let text = self.text(column)?;
        Uuid::parse_str(&text).map_err(|e| self.corrupt(column, format!("{text:?}: {e}")))
    }

    /// A text column holding one of a closed set of words, read by `parse`.
    pub fn word<T>(
        &self,
        column: &'static str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, StoreError> {
        let text = self.text(column)?;
        parse(&text).ok_or_else(|| self.corrupt(column, format!("unknown value {text:?}")))
    }
}
