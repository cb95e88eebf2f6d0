# Independent (Python pow/hashlib) check of the ODA data our test CA, issuer and card sign.
python3 scripts/oda-crosscheck.py Tests/EMVTests/Vectors/oda-test-card.json
