#!/bin/sh
# Run once by the postgres image when its data volume is new (/docker-entrypoint-initdb.d). Makes
# the two roles of README "Audit trail integrity": cdms_owner owns the database and runs the
# migrations; cdms_app, the servers' role, owns nothing, so it cannot alter the audit table or
# disable its triggers. Their passwords come from the compose secrets, never from this file.
set -eu

psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v owner_password="$(cat /run/secrets/cdms_owner_password)" \
  -v app_password="$(cat /run/secrets/cdms_app_password)" <<'SQL'
CREATE ROLE cdms_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE cdms_app LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE DATABASE cdms OWNER cdms_owner;
\c cdms
ALTER SCHEMA public OWNER TO cdms_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL
