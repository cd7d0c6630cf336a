// JitHot.java - Java that spends CPU time (its thread's, not wall time)
// in spinMath, for tests/live/test-jit-java.sh: once it has spent WARM
// seconds (the JIT has compiled spinMath by then) it writes READYFILE,
// then goes on until TOTAL seconds.
// usage: java JitHot.java WARM TOTAL READYFILE
import java.io.FileWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class JitHot {
    static double spinMath(int n) {
        double s = 0;
        for (int i = 1; i < n; i++)
            s += Math.sqrt(i) / i;
        return s;
    }

    public static void main(String[] args) throws Exception {
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        long warm = (long) (Double.parseDouble(args[0]) * 1e9);
        long total = (long) (Double.parseDouble(args[1]) * 1e9);
        boolean ready = false;
        double acc = 0;

        while (tm.getCurrentThreadCpuTime() < total) {
            acc += spinMath(100000);
            if (!ready && tm.getCurrentThreadCpuTime() >= warm) {
                try (FileWriter w = new FileWriter(args[2])) {
                    w.write(ProcessHandle.current().pid() + "\n");
                }
                ready = true;
            }
        }
        if (acc < 0)
            System.out.println(acc);
    }
}
