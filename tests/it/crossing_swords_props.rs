//! Property tests of the Crossing Swords adjudicator (filled in below).
