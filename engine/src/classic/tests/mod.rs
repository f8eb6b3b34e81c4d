//! Tests of classic, one module per concern.
