"""Step library of the Gherkin features, split into Given / When / Then."""
