// The administration lists served from memory while their rows are unchanged (issue 28; docs/architecture.md,
// "Performance of the lists"), as the patient list is (migration 0005, server/db/freshness.ts):
// - 'staff:<clinic>': the clinic's users, the links mailed to them (an invite's expiry is on the list) and its
//   security settings (each user's password rules are on the list);
// - 'devices:<clinic>': the clinic's devices;
// - 'notifications:<user>': the user's notifications.
// Each is raised at the commit of any change to those rows. And the notification list's order on an index:
// unread first, each newest first, so that the ids of a user's list are read off it instead of sorting every
// notification of the user (an external merge sort of 20,000 rows took 1.4 s on PGlite).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Rows with a clinic_id: the version named by the trigger's argument and the clinic (old and new).
    create function cache_versions_of_clinic() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform cache_version_raise(tg_argv[0] || old.clinic_id);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.clinic_id <> old.clinic_id) then
        perform cache_version_raise(tg_argv[0] || new.clinic_id);
      end if;
      return null;
    end;
    $$;

    -- A user's links: the staff list of the user's clinic (none when the user is gone with them).
    create function cache_versions_user_tokens() returns trigger language plpgsql as $$
    declare
      clinic uuid;
    begin
      select clinic_id into clinic from users where id = (case when tg_op = 'DELETE' then old.user_id else new.user_id end);
      if clinic is not null then
        perform cache_version_raise('staff:' || clinic);
      end if;
      return null;
    end;
    $$;

    create function cache_versions_notifications() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform cache_version_raise('notifications:' || old.user_id);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id <> old.user_id) then
        perform cache_version_raise('notifications:' || new.user_id);
      end if;
      return null;
    end;
    $$;

    create constraint trigger users_staff_version after insert or update or delete on users
      deferrable initially deferred for each row execute function cache_versions_of_clinic('staff:');
    create constraint trigger user_tokens_staff_version after insert or update or delete on user_tokens
      deferrable initially deferred for each row execute function cache_versions_user_tokens();
    create constraint trigger security_settings_staff_version after insert or update or delete on security_settings
      deferrable initially deferred for each row execute function cache_versions_of_clinic('staff:');
    create constraint trigger security_settings_users_staff_version after insert or update or delete on security_settings_users
      deferrable initially deferred for each row execute function cache_versions_of_clinic('staff:');
    create constraint trigger devices_version after insert or update or delete on devices
      deferrable initially deferred for each row execute function cache_versions_of_clinic('devices:');
    create constraint trigger notifications_version after insert or update or delete on notifications
      deferrable initially deferred for each row execute function cache_versions_notifications();

    create index notifications_in_list_order on notifications (user_id, (read_at is null) desc, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index notifications_in_list_order;
    drop trigger users_staff_version on users;
    drop trigger user_tokens_staff_version on user_tokens;
    drop trigger security_settings_staff_version on security_settings;
    drop trigger security_settings_users_staff_version on security_settings_users;
    drop trigger devices_version on devices;
    drop trigger notifications_version on notifications;
    drop function cache_versions_of_clinic();
    drop function cache_versions_user_tokens();
    drop function cache_versions_notifications();
  `.execute(db);
}
