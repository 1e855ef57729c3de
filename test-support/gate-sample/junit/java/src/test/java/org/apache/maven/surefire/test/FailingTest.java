package org.apache.maven.surefire.test;

import static org.hamcrest.CoreMatchers.equalTo;
import static org.junit.Assert.assertThat;

import org.junit.Test;

public class FailingTest {











    @Test
    public void defaultTestValueIs_Value() {
        String value = "value";
        assertThat(value, equalTo("wrong"));
    }





    @Test
    public void setTestAndRetrieveValue() {
        String value = "foo";
        // planted
        assertThat(value, equalTo("bar"));
    }
}
