package com.github.onozaty.junit.xml2csv;

import static org.junit.Assert.fail;

import org.junit.Test;

public class TestCase2 {

    @Test
    public void test1() {
    }

    @Test
    public void test2() {
        fail("not yet implemented");
    }
}
