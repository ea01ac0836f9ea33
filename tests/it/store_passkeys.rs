//! The passkey store on both backends (docs/identity.md, "Passkeys"; the browser test drives
//! the ceremonies on SQLite only): a passkey is stored once per credential, found by it, its
//! counter updated on use; a session it started lives while it does; and a ceremony is taken
//! once, by its own kind, before it ends.

use uuid::Uuid;

use herald::host::auth::hash_token;
use herald::host::names::name_key;
use herald::store::{CeremonyKind, PasskeyRow, SessionRow};

use crate::api_profiles::profile;
use crate::support::timed_apps;

const MINUTE: i64 = 60_000;

#[tokio::test]
async fn a_passkey_and_its_ceremonies_round_trip_through_the_store() {
    for app in timed_apps().await {
        profile(&app, "Keyholder").await;
        let store = &app.store;
        let owner = store
            .profile_by_handle(&name_key("Keyholder"))
            .await
            .unwrap()
            .expect("the profile")
            .id;
        let now = app.clock.now_millis();
        let passkey = PasskeyRow {
            id: Uuid::new_v4(),
            profile: owner,
            credential_id: "Y3JlZGVudGlhbA".into(),
            passkey: r#"{"cred":{"counter":0}}"#.into(),
            created_at: now,
            used_at: None,
        };
        assert!(
            store.add_passkey(&passkey).await.unwrap(),
            "{}",
            app.backend
        );
        let twin = PasskeyRow {
            id: Uuid::new_v4(),
            ..passkey.clone()
        };
        assert!(
            !store.add_passkey(&twin).await.unwrap(),
            "one row per credential"
        );
        let listed = store.passkeys_of(owner).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].id, listed[0].passkey.as_str(), listed[0].used_at),
            (passkey.id, passkey.passkey.as_str(), None)
        );

        // A sign-in stores the new counter and when.
        store
            .passkey_used(passkey.id, r#"{"cred":{"counter":1}}"#, now + MINUTE)
            .await
            .unwrap();
        let found = store
            .passkey_by_credential("Y3JlZGVudGlhbA")
            .await
            .unwrap()
            .expect("found by its credential");
        assert_eq!(
            (found.passkey.as_str(), found.used_at),
            (r#"{"cred":{"counter":1}}"#, Some(now + MINUTE))
        );
        assert!(
            store
                .passkey_by_credential("other")
                .await
                .unwrap()
                .is_none()
        );

        // A session it started lives while it does.
        let session = SessionRow {
            id: Uuid::new_v4(),
            profile: owner,
            key: passkey.id,
            created_at: now,
            expires_at: now + 60 * MINUTE,
        };
        store
            .create_session(&session, &hash_token("a session secret"))
            .await
            .unwrap();
        let live = store
            .live_session(&hash_token("a session secret"), now)
            .await;
        assert_eq!(live.unwrap().map(|s| s.key), Some(passkey.id));
        assert!(
            !store
                .remove_passkey(Uuid::new_v4(), passkey.id)
                .await
                .unwrap()
        );
        assert!(store.remove_passkey(owner, passkey.id).await.unwrap());
        assert!(store.passkeys_of(owner).await.unwrap().is_empty());
        let live = store
            .live_session(&hash_token("a session secret"), now)
            .await;
        assert!(live.unwrap().is_none(), "its sessions end with it");

        // A ceremony is taken once, by its kind, while it lasts.
        let (register, sign_in) = (Uuid::new_v4(), Uuid::new_v4());
        for (id, kind) in [
            (register, CeremonyKind::Register),
            (sign_in, CeremonyKind::SignIn),
        ] {
            store
                .start_ceremony(id, owner, kind, "{\"state\":1}", now, now + 5 * MINUTE)
                .await
                .unwrap();
        }
        let wrong_kind = store.take_ceremony(register, CeremonyKind::SignIn, now);
        assert!(wrong_kind.await.unwrap().is_none());
        let taken = store
            .take_ceremony(register, CeremonyKind::Register, now)
            .await
            .unwrap();
        assert_eq!(taken, Some((owner, "{\"state\":1}".to_owned())));
        let again = store.take_ceremony(register, CeremonyKind::Register, now);
        assert!(again.await.unwrap().is_none(), "once");
        let late = store.take_ceremony(sign_in, CeremonyKind::SignIn, now + 5 * MINUTE);
        assert!(late.await.unwrap().is_none(), "ended");
    }
}
