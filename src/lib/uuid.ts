const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in links are UUIDs: anything else names a record that cannot exist, so no request is sent for it. */
export const isUuid = (value: string): boolean => UUID.test(value);
