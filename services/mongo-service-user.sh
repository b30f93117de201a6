# Sourced by the mongo image's entrypoint from /docker-entrypoint-initdb.d, once, on mongo-1's empty
# volume, after it created the root user: one user per service, named after it, with readWrite on
# its own database only (BAHI_MONGO_<SERVICE>_PASSWORD). The other members receive the users when
# they join the replica set. Authenticates as root because the key file turns access control on
# during the init too.
mongosh --quiet --host 127.0.0.1 --port 27017 \
  --username "$MONGO_INITDB_ROOT_USERNAME" --password "$MONGO_INITDB_ROOT_PASSWORD" --authenticationDatabase admin \
  admin --eval '
    for (const service of ["identity", "inventory", "sales", "ledger", "documents", "reports"]) {
      const pwd = process.env["BAHI_MONGO_" + service.toUpperCase() + "_PASSWORD"];
      if (!pwd) throw new Error("BAHI_MONGO_" + service.toUpperCase() + "_PASSWORD is not set");
      db.createUser({ user: service, pwd, roles: [{ role: "readWrite", db: "bahi_" + service }] });
      print("created MongoDB user " + service + " (readWrite on bahi_" + service + ")");
    }
  '
