import java.util.*;

public class App {
    public static int total(int[] items) {
        int sum = 0;
        for (int i = 0; i < items.length; i++) sum += items[i];
        return sum;
    }
}
