class TestFile {
}
